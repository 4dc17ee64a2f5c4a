import Type from 'typebox'
import { Id } from './common.js'

const MAX_FILTER_ITEMS = 100

/** Body of POST /company/<company_id>/knowledge-base/search (extension). */
export const SearchBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 2000, description: 'the question or keywords' }),
  filters: Type.Optional(
    Type.Object({
      paths: Type.Optional(
        Type.Array(Id, {
          maxItems: MAX_FILTER_ITEMS,
          description: 'document ids (a folder id selects its subtree), as message filters',
        }),
      ),
      tags: Type.Optional(Type.Array(Id, { maxItems: MAX_FILTER_ITEMS, description: 'tag ids' })),
      folders: Type.Optional(
        Type.Array(Type.String({ maxLength: 1024 }), {
          maxItems: MAX_FILTER_ITEMS,
          description: 'folder paths (extension): documents below any of them',
        }),
      ),
    }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  bot_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "search within this bot's scope (and obey its manual_filters); default: the whole knowledge base",
    }),
  ),
})

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description })

const SearchHit = Type.Object({
  document_id: Type.String(),
  object_name: Type.String({ description: 'absolute path of the document' }),
  filename: Type.String(),
  page_number: Nullable('page `3`, range `3-4`, slide, or `<sheet>!<rows>`; null for formats without pages'),
  row_idx: Nullable('source rows of csv/xlsx chunks; null otherwise'),
  chunk_idx: Type.Integer({ description: 'index of the chunk in its document' }),
  score: Type.Number({ description: 'BM25 score, higher is better' }),
  usage_score: Type.Number({
    minimum: 0,
    maximum: 1,
    description: "the score over the query's highest attainable score",
  }),
  text: Type.String(),
  document_type: Type.String({ description: '`text` or `image`' }),
})

/** Ranked chunks, best first, with the query as analysed. */
export const SearchResponse = Type.Object({
  hits: Type.Array(SearchHit),
  query: Type.Object({
    terms: Type.Array(Type.String(), { description: 'distinct analysed terms (folded, stemmed, no stop words)' }),
    language: Type.String({ description: 'ISO 639-1 code the query was analysed in' }),
  }),
})
