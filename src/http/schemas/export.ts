import Type from 'typebox'
import { TITLE_MAX } from '../../domain/chats/chats.js'

/** Body of POST /chat/<chat_id>/messages/export. */
export const ExportBody = Type.Object({
  export_type: Type.Union([Type.Literal('text'), Type.Literal('markdown')]),
  title: Type.String({ minLength: 1, maxLength: TITLE_MAX, description: 'first heading of the transcript' }),
  summary_type: Type.Union([Type.Literal('ai'), Type.Literal('custom')], {
    description: 'ai: written by the service (offline extractive, or the LLM when configured); custom: `summary`',
  }),
  summary: Type.Optional(Type.String({ description: 'required when summary_type is custom' })),
})

const Transcript = Type.String({ description: 'the transcript (spec 4.3 layout)' })

/** The transcript, as text/plain or text/markdown. */
export const ExportResponse = {
  description: 'The transcript: text/plain for export_type text, text/markdown for markdown',
  content: {
    'text/plain': { schema: Transcript },
    'text/markdown': { schema: Transcript },
  },
}
