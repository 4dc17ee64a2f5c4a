import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { ChatParams } from '../../schemas/chats.js'
import { BEARER, responses } from '../../schemas/common.js'
import { ExportBody, ExportResponse } from '../../schemas/export.js'

const CONTENT_TYPE = { text: 'text/plain; charset=utf-8', markdown: 'text/markdown; charset=utf-8' } as const

/** Endpoint 12: the chat as a plain-text or markdown transcript (not JSON). */
export function exportMessagesRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/chat/:chat_id/messages/export',
    {
      schema: {
        operationId: 'exportMessages',
        summary: 'Export a chat as a text or markdown transcript with a summary',
        tags: ['chats'],
        security: BEARER,
        produces: ['text/plain', 'text/markdown'],
        params: ChatParams,
        body: ExportBody,
        response: responses({ 200: ExportResponse }),
      },
    },
    async (request, reply) => {
      const params = request.params as Static<typeof ChatParams>
      const body = request.body as Static<typeof ExportBody>
      const exported = await ctx.services.chatExport.export(principalOf(request), params.chat_id, {
        exportType: body.export_type,
        title: body.title,
        summaryType: body.summary_type,
        summary: body.summary,
      })
      return reply.type(CONTENT_TYPE[exported.exportType]).send(exported.content)
    },
  )
}
