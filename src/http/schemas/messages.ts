import Type from 'typebox'
import { HISTORY_SIZE, MESSAGE_MAX } from '../../domain/chats/messages.js'
import { Id } from './common.js'

/** Body of POST /chat/<chat_id>/messages (spec 4.3). */
export const SendMessageBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: MESSAGE_MAX }),
  auto_document_selector: Type.Optional(
    Type.Boolean({ description: "forces automatic document selection when the bot's selector is `choose`" }),
  ),
  filters: Type.Optional(
    Type.Object({
      paths: Type.Optional(Type.Array(Id, { description: 'ids of knowledge-base documents (or folders) to use' })),
      tags: Type.Optional(Type.Array(Id, { description: 'tag ids' })),
    }),
  ),
  data_analysis: Type.Optional(Type.Boolean()),
  document_ids: Type.Optional(Type.Array(Id)),
})

export const HistoryQuery = Type.Object({
  size: Type.Integer({ minimum: HISTORY_SIZE.min, maximum: HISTORY_SIZE.max, default: HISTORY_SIZE.default }),
  timestamp: Type.Optional(
    Type.String({ description: 'ISO 8601 UTC, with or without `Z` and fraction; default: now' }),
  ),
})

const Source = Type.Object({
  description: Type.String(),
  chunk_content: Type.Union([Type.String(), Type.Null()]),
  chunk_idx: Type.Union([Type.Integer(), Type.Null()]),
  document_type: Type.String(),
  filename: Type.String(),
  id: Type.String({ description: 'document id' }),
  object_name: Type.String(),
  page_number: Type.String({ description: 'page or page range; empty when the format has no pages' }),
  row_idx: Type.Union([Type.String(), Type.Null()]),
  retrieval_mode: Type.String({ description: '`similarity` (retrieved) or `lookup` (a default document)' }),
  usage_score: Type.Number({ minimum: 0, maximum: 1 }),
})

/** Extension (docs/extensions.md): the machine-readable result of data-analysis mode. */
const AnalysisField = Type.Object({
  result: Type.Unknown({
    description:
      'boolean, number, string, array of numbers or strings, table rows (objects), or for `values` one object of named values',
  }),
  result_type: Type.Union(
    ['boolean', 'number', 'category', 'list[number]', 'list[category]', 'table', 'values'].map((value) =>
      Type.Literal(value),
    ),
  ),
  plan: Type.String({ description: 'the computation in plain words, then the SQL query' }),
  mapping: Type.Array(
    Type.Object({
      words: Type.String({ description: "the question's words, folded (lower case, no accents)" }),
      column: Type.String(),
      value: Type.Union([Type.String(), Type.Null()], {
        description: 'the cell value they name; null: the column itself',
      }),
    }),
    { description: 'which words were read as which columns and values; empty when the query was written by a model' },
  ),
})

/** Chat message of spec 2.5: the response of send-message. */
export const ChatMessage = Type.Object({
  chat_id: Type.String(),
  actor: Type.String(),
  timestamp: Type.String({ description: 'ISO 8601 UTC with Z, microseconds' }),
  text: Type.String(),
  question: Type.String(),
  rephrasing: Type.String(),
  auto_doc_filtering: Type.Boolean(),
  documents_filtered: Type.Array(Type.String()),
  validated_autodocs: Type.Union([Type.Boolean(), Type.Null()]),
  keywords: Type.Array(Type.String()),
  small_talk: Type.Boolean(),
  previews: Type.Array(Type.Object({ type: Type.String(), url: Type.String(), title: Type.String() })),
  bot_id: Type.String(),
  tags: Type.Object({
    bot_id: Type.String(),
    document_ids: Type.Array(Type.String()),
    paths: Type.Array(Type.Object({ id: Type.String(), object_name: Type.String() })),
    tags: Type.Array(Type.String()),
  }),
  sources: Type.Array(Source),
  analysis: Type.Union([AnalysisField, Type.Null()], {
    description: 'extension: the typed result of data-analysis mode; null when the mode was not used or declined',
  }),
})

/** Stored message of spec 2.6. */
const StoredMessage = Type.Object({
  actor: Type.String(),
  chat_id: Type.String(),
  text: Type.String(),
  time: Type.String({ description: 'UTC, ISO 8601 without zone, microseconds' }),
  tags: Type.String({ description: 'JSON-encoded array of {"<path>": [tag names]} objects' }),
  sources: Type.Array(
    Type.Object({
      description: Type.String(),
      filename: Type.String(),
      page: Type.Integer({ description: 'first page of the source; 0 when the format has no pages' }),
      page_content: Type.String(),
      tags: Type.Array(Type.String()),
      usage_score: Type.Number(),
    }),
  ),
})

export const History = Type.Object({ history: Type.Array(StoredMessage) })
