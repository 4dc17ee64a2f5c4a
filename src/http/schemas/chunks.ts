import Type from 'typebox'

/**
 * Metadata of one chunk (spec 2.9). The keys present depend on the chunk's kind; any other key a
 * future version adds is passed through (additionalProperties), never dropped by the serializer.
 */
const ChunkMetadata = Type.Object(
  {
    document_type: Type.String({ description: '`text` or `image`' }),
    filename: Type.String(),
    filetype: Type.String({ description: 'MIME type sniffed at upload' }),
    category: Type.Enum(['text', 'title', 'table', 'image']),
    idx: Type.Integer({ description: 'index of the chunk in its document' }),
    page_number: Type.Optional(
      Type.String({
        description: 'page `3`, range `3-4`, slide, or `<sheet>!<rows>`; absent for formats without pages',
      }),
    ),
    image_id: Type.Optional(Type.String({ description: 'image chunks only' })),
    row: Type.Optional(Type.Integer({ description: 'first source row (table chunks only)' })),
    source: Type.String({ description: 'object_name of the document' }),
    academy_file: Type.Boolean(),
    lantern_document_id: Type.String({ description: 'id of the document' }),
  },
  { additionalProperties: true },
)

/** Spec 2.9: parallel arrays, one position per chunk, ordered by idx. */
export const DocumentChunks = Type.Object({
  documents: Type.Array(Type.String(), { description: 'chunk texts' }),
  ids: Type.Array(Type.String(), { description: 'chunk ids' }),
  included: Type.Array(Type.String(), { description: 'always `["documents", "metadatas"]`' }),
  metadatas: Type.Array(ChunkMetadata),
})
