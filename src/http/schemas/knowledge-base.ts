import Type from 'typebox'
import { MAX_CARD_SUBJECTS, MAX_CARD_TEXT } from '../../domain/knowledge-base/cards.js'
import { MAX_DESCRIPTION_LENGTH } from '../../domain/knowledge-base/documents.js'
import { DateTime, Id, Pagination } from './common.js'

const MAX_TAGS = 100

export const KbObjectParams = Type.Object({ company_id: Id, object_id: Id })

/** Query of GET /company/<company_id>/knowledge-base. */
export const KbListQuery = Type.Object({
  path: Type.String({ maxLength: 2048, default: '/', description: 'folder path; `/` is the root' }),
  ...Pagination,
  search: Type.Optional(Type.String({ maxLength: 255, description: "case-insensitive substring of the entry's name" })),
  recursive: Type.Boolean({
    default: false,
    description: 'the whole subtree, depth-first by path, instead of the direct children',
  }),
  tag: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'extension: only the documents carrying this tag id (folders left out); an unknown tag is not_found',
      'x-extension': true,
    }),
  ),
})

const Tags = Type.Array(Type.String(), { description: 'tag ids, ordered by tag name' })

/** A list entry (spec 2.7): `size` is present for files only. */
export const KbEntry = Type.Object({
  id: Type.String(),
  object_name: Type.String({ description: 'absolute path; folders end with `/`' }),
  is_file: Type.Boolean(),
  is_folder: Type.Boolean(),
  size: Type.Optional(Type.Integer({ description: 'bytes' })),
  tags: Tags,
  create_at: DateTime,
  update_at: DateTime,
})

const NullableDateTime = Type.Union([DateTime, Type.Null()])

const Processing = Type.Object({
  chunk_count: Type.Integer(),
  doc_pages_count: Type.Integer(),
  duration: Type.Union([Type.Number(), Type.Null()], { description: 'seconds; null until processed' }),
  embedding_state: Type.Enum(['PENDING', 'PROCESSING', 'PROCESSED', 'ERROR']),
  error_details: Type.String({ description: 'empty unless the state is ERROR' }),
  start_timestamp: NullableDateTime,
  end_timestamp: NullableDateTime,
  progress: Type.Object(
    { done: Type.Integer(), total: Type.Integer() },
    { description: 'extension: units of work done out of the total known so far', 'x-extension': true },
  ),
})

const CardPeriod = Type.Object({
  label: Type.String({ description: 'as a person would say it: `quarter ended July 2, 2023`' }),
  start: Type.String({ format: 'date', description: 'first day covered' }),
  end: Type.String({ format: 'date', description: 'last day covered' }),
  fiscal_year: Type.Union([Type.Integer(), Type.Null()]),
  fiscal_quarter: Type.Union([Type.Integer(), Type.Null()]),
})

const DocumentCard = Type.Union(
  [
    Type.Object({
      title: Type.Union([Type.String(), Type.Null()]),
      subjects: Type.Array(Type.String(), {
        description: 'who or what the document is about, most important first: names, other names, ticker symbols',
      }),
      period: Type.Union([CardPeriod, Type.Null()]),
      kind: Type.Union([Type.String(), Type.Null()], { description: 'e.g. `quarterly report`, `invoice`, `minutes`' }),
      filename: Type.String(),
      folder: Type.String({ description: 'the folder path, ending with `/`' }),
      card_type: Type.Enum(['ai', 'manual'], { description: '`manual` once a user corrected it' }),
    }),
    Type.Null(),
  ],
  {
    description:
      'extension: what the document is about, read from it when processed (null before); corrected through the metadata edit',
    'x-extension': true,
  },
)

const DocumentMetadata = Type.Object({
  id: Type.String(),
  object_name: Type.String(),
  is_file: Type.Literal(true),
  is_folder: Type.Literal(false),
  tags: Tags,
  size: Type.Integer({ description: 'bytes' }),
  create_at: DateTime,
  update_at: DateTime,
  description: Type.String(),
  description_type: Type.Enum(['ai', 'manual']),
  document_type: Type.Enum(['text', 'image']),
  loader_type_preference: Type.Enum(['standard', 'advanced']),
  processing: Processing,
  document_card: DocumentCard,
})

const FolderMetadata = Type.Object({
  id: Type.String(),
  object_name: Type.String(),
  is_file: Type.Literal(false),
  is_folder: Type.Literal(true),
  tags: Tags,
  create_at: DateTime,
  update_at: DateTime,
})

/** Metadata of a document or a folder (spec 2.7). */
export const KbMetadata = Type.Union([DocumentMetadata, FolderMetadata])

const LoaderType = Type.Enum(['ADVANCED', 'STANDARD', 'advanced', 'standard'], {
  description: 'case-insensitive',
})
const CsvDelimiter = Type.Enum(['comma', 'semicolon', 'tab'])
const ImageMinSizeRatio = Type.Number({
  minimum: 0,
  maximum: 1,
  description: 'smallest image extracted, as a fraction of the page area',
})
const Description = Type.String({ maxLength: MAX_DESCRIPTION_LENGTH })
const TagIds = Type.Array(Id, { maxItems: MAX_TAGS, description: 'tag ids of the company' })

const CardText = Type.Union([Type.String({ maxLength: MAX_CARD_TEXT }), Type.Null()])

/** A correction of the document card: only the fields given change; null clears one. */
const CardCorrection = Type.Object(
  {
    title: Type.Optional(CardText),
    subjects: Type.Optional(Type.Array(Type.String({ maxLength: MAX_CARD_TEXT }), { maxItems: MAX_CARD_SUBJECTS })),
    period: Type.Optional(
      Type.Union([
        Type.Object({
          start: Type.String({ description: 'first day covered, `YYYY-MM-DD`' }),
          end: Type.String({ description: 'last day covered, `YYYY-MM-DD`' }),
          label: Type.Optional(Type.String({ maxLength: MAX_CARD_TEXT })),
          fiscal_year: Type.Optional(Type.Integer({ minimum: 1000, maximum: 9999 })),
          fiscal_quarter: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
        }),
        Type.Null(),
      ]),
    ),
    kind: Type.Optional(CardText),
  },
  {
    description:
      'extension: corrects the document card; the document is re-indexed at once, not processed again, and processing keeps the correction',
    'x-extension': true,
  },
)

/** Body of PATCH …/knowledge-base/<object_id>/metadata: only the fields given change. */
export const MetadataBody = Type.Object({
  loader_type: Type.Optional(LoaderType),
  auto_description: Type.Optional(Type.Boolean()),
  description: Type.Optional(Description),
  csv_delimiter: Type.Optional(CsvDelimiter),
  image_min_size_ratio: Type.Optional(ImageMinSizeRatio),
  tags: Type.Optional(TagIds),
  document_card: Type.Optional(CardCorrection),
})

/** Body of POST …/knowledge-base/folders. */
export const FolderBody = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 2048, description: 'full path of the folder to create' }),
})

/**
 * The multipart form of the upload, for the OpenAPI document only: the handler parses the stream
 * itself (fields may come after the file), so this schema is not used to validate.
 */
export const UploadForm = Type.Object({
  files: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'the file (one part)' }),
  path: Type.Optional(Type.String({ default: '/', description: 'target folder, created with its parents' })),
  loader_type: Type.Optional(Type.Enum(['ADVANCED', 'STANDARD'], { default: 'STANDARD' })),
  auto_description: Type.Optional(Type.Boolean({ default: true })),
  description: Type.Optional(Description),
  overwrite: Type.Optional(Type.Boolean({ default: false })),
  csv_delimiter: Type.Optional(CsvDelimiter),
  image_min_size_ratio: Type.Optional(ImageMinSizeRatio),
  tags: Type.Optional(
    Type.Array(Type.String(), { description: 'tag ids: repeated fields, or one field holding a JSON array' }),
  ),
})

/** The original bytes of a document, for the OpenAPI document. */
export const FileContent = Type.Unsafe<unknown>({ type: 'string', format: 'binary' })
