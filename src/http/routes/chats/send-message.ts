import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { AppError } from '../../../lib/errors.js'
import { principalOf } from '../../plugins/auth.js'
import { presentSentMessage } from '../../presenters/messages.js'
import { ChatParams } from '../../schemas/chats.js'
import { BEARER, responses } from '../../schemas/common.js'
import { ChatMessage, SendMessageBody } from '../../schemas/messages.js'

function wantsEvents(accept: string | undefined): boolean {
  return accept?.split(',').some((part) => part.trim().toLowerCase().startsWith('text/event-stream')) ?? false
}

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`
}

/** Opens the event stream on first use; until then a failure is still an ordinary problem response. */
function eventStream(reply: FastifyReply) {
  let open = false
  const start = () => {
    if (open) return
    open = true
    reply.hijack()
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    })
  }
  return {
    get open() {
      return open
    },
    send(name: string, data: unknown) {
      start()
      reply.raw.write(event(name, data))
    },
    end() {
      start()
      reply.raw.end(event('done', {}))
    },
  }
}

/**
 * Endpoint 10: ask a question in a chat. JSON by default; with `Accept: text/event-stream`,
 * Server-Sent Events: `token` events with the answer text as it is written, one `message` event
 * with the full response object, then `done` (an `error` event with a problem if it fails midway).
 */
export function sendMessageRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/chat/:chat_id/messages',
    {
      schema: {
        operationId: 'sendMessage',
        summary: 'Ask a question: a cited answer from the knowledge base (JSON, or SSE with Accept: text/event-stream)',
        tags: ['chats'],
        security: BEARER,
        params: ChatParams,
        body: SendMessageBody,
        response: responses({ 200: ChatMessage }),
      },
    },
    async (request, reply) => {
      const params = request.params as Static<typeof ChatParams>
      const body = request.body as Static<typeof SendMessageBody>
      const input = {
        message: body.message,
        autoDocumentSelector: body.auto_document_selector,
        filters: body.filters,
        dataAnalysis: body.data_analysis,
        documentIds: body.document_ids,
      }
      if (!wantsEvents(request.headers.accept)) {
        return presentSentMessage(await ctx.services.messages.send(principalOf(request), params.chat_id, input))
      }
      const stream = eventStream(reply)
      try {
        const sent = await ctx.services.messages.send(principalOf(request), params.chat_id, input, (text) =>
          stream.send('token', { text }),
        )
        stream.send('message', presentSentMessage(sent))
        stream.end()
      } catch (error) {
        if (!stream.open) throw error
        const code = error instanceof AppError ? error.code : 'internal'
        const detail = error instanceof AppError ? error.message : 'internal error'
        request.log.error({ err: error }, 'send-message stream failed')
        stream.send('error', { code, detail })
        reply.raw.end()
      }
      return reply
    },
  )
}
