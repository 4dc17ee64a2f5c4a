import type { Generated } from 'kysely'

/**
 * Row types of every table, shared by both dialects. Booleans are stored as 0/1 integers and
 * JSON as text, so both stores return identical values; timestamps are fixed-width ISO text.
 */
export interface CompaniesTable {
  id: string
  name: string
  idp_id: string
  default_bot_id: string
  license_type: string
  license_expiration: string
  kb_max_bytes: number
  questions_max: number
  questions_used: number
  created_at: string
  updated_at: string
}

export interface ApiClientsTable {
  id: string
  company_id: string
  app_name: string
  client_id: string
  secret_hash: string
  secret_version: number
  disabled: number
  created_at: string
  updated_at: string
}

export interface AccessTokensTable {
  token_hash: string
  api_client_id: string
  company_id: string
  secret_version: number
  expires_at: string
  created_at: string
}

export interface BotsTable {
  id: string
  company_id: string
  label: string
  description: string
  prompt_name: string
  prompt_text: string
  auto_document_selector: string
  manual_filters: number
  data_scientist_mode: number
  icon_name: string
  icon_type: string
  locale: string
  filter_paths: string
  filter_tags: string
  default_documents: string
  default_auto_documents: string
  created_at: string
  updated_at: string
}

export interface ChatsTable {
  id: string
  company_id: string
  title: string
  bot_id: string
  archived: number
  created_at: string
  updated_at: string
}

export interface ChatMembersTable {
  chat_id: string
  company_id: string
  member: string
}

export interface KbObjectsTable {
  id: string
  company_id: string
  object_name: string
  parent_path: string
  name: string
  sort_key: string
  is_folder: number
  size: number | null
  mime_type: string | null
  sha256: string | null
  blob_key: string | null
  description: string
  description_type: string
  document_type: string | null
  loader_type: string | null
  auto_description: number
  csv_delimiter: string | null
  image_min_size_ratio: number | null
  embedding_state: string | null
  error_details: string
  chunk_count: number
  doc_pages_count: number
  processing_started_at: string | null
  processing_ended_at: string | null
  processing_duration: number | null
  progress_done: number
  progress_total: number
  /** DocumentCard as JSON; null until processed (migration 0010). */
  card: string | null
  card_type: string
  created_at: string
  updated_at: string
}

export interface TagsTable {
  id: string
  company_id: string
  name: string
  name_key: string
  created_at: string
  updated_at: string
}

export interface DocumentTagsTable {
  document_id: string
  tag_id: string
  company_id: string
}

export interface JobsTable {
  id: string
  company_id: string
  kind: string
  subject_id: string
  payload: string
  state: string
  attempts: number
  max_attempts: number
  run_after: string
  lease_owner: string | null
  lease_expires_at: string | null
  last_error: string | null
  created_at: string
  updated_at: string
}

export interface BlobChunksTable {
  blob_key: string
  seq: number
  data: Uint8Array
}

export interface ChunksTable {
  id: string
  company_id: string
  document_id: string
  idx: number
  text: string
  token_count: number
  /** Analysed length (number of terms): the document length of BM25. */
  term_count: number
  page_number: string | null
  row_idx: string | null
  /** Spec 2.9 metadata as a JSON object. */
  metadata: string
  language: string
  created_at: string
}

/** Integer key of a company in the lexical index (migration 0008): postings name it by this. */
export interface IndexCompaniesTable {
  key: Generated<number>
  company_id: string
}

/** Integer key of a document in the lexical index (migration 0008): postings name it by this. */
export interface IndexDocumentKeysTable {
  key: Generated<number>
  company_id: string
  document_id: string
}

/**
 * Postings of the lexical index in blocks (migration 0009): the postings of one term in the chunks
 * one write of a document added (src/storage/kysely/posting-blocks.ts).
 */
export interface PostingBlocksTable {
  company_key: number
  term: string
  /** Largest BM25 term-frequency part for the reference length (src/retrieval/bm25.ts impactOf) in the block: read order. */
  max_impact: number
  document_key: number
  /** Chunk idx of the block's first posting. */
  first_chunk: number
  posting_count: number
  postings: Uint8Array
}

/** Document frequency of a term: chunks of the company holding it (every chunk in `chunks`). */
export interface TermStatsTable {
  company_id: string
  term: string
  df: number
}

/** Size of a document in the lexical index, per language. */
export interface IndexDocumentsTable {
  company_id: string
  document_id: string
  language: string
  chunk_count: number
  total_terms: number
}

/** Per company, how many changes of its lexical index were recorded (migration 0007). */
export interface IndexVersionsTable {
  company_id: string
  version: number
}

/** Which documents each recorded change of a company's lexical index touched (recent versions only). */
export interface IndexChangesTable {
  company_id: string
  version: number
  document_id: string
}

/** Dense vector of a chunk for one embedding model: Float32 little-endian bytes. */
export interface ChunkVectorsTable {
  chunk_id: string
  company_id: string
  document_id: string
  model: string
  dims: number
  vector: Uint8Array
}

/** Chat messages; `tags` and `sources` are JSON text. */
export interface MessagesTable {
  id: string
  company_id: string
  chat_id: string
  actor: string
  text: string
  tags: string
  sources: string
  created_at: string
}

export interface Database {
  companies: CompaniesTable
  api_clients: ApiClientsTable
  access_tokens: AccessTokensTable
  bots: BotsTable
  chats: ChatsTable
  chat_members: ChatMembersTable
  kb_objects: KbObjectsTable
  tags: TagsTable
  document_tags: DocumentTagsTable
  jobs: JobsTable
  blob_chunks: BlobChunksTable
  chunks: ChunksTable
  index_companies: IndexCompaniesTable
  index_document_keys: IndexDocumentKeysTable
  posting_blocks: PostingBlocksTable
  term_stats: TermStatsTable
  index_documents: IndexDocumentsTable
  index_versions: IndexVersionsTable
  index_changes: IndexChangesTable
  chunk_vectors: ChunkVectorsTable
  messages: MessagesTable
}
