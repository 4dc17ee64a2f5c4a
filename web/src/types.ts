/** The wire shapes the console reads (the specification's field names). */
export interface Bot {
  id: string
  label: string
  description: string
  prompt: { name: string; prompt: string }
  locale?: string
  auto_document_selector?: string
  manual_filters?: boolean
  data_scientist_mode?: boolean
  icon?: { name?: string; type?: string }
  filters?: { paths?: string[]; tags?: string[]; default_documents?: string[]; default_auto_documents?: string[] }
}

export interface Chat {
  id: string
  title: string
  archived?: boolean
  bot_id?: string | null
  update_at: string
}

export interface Source {
  id: string
  object_name: string
  filename: string
  page_number: string | null
  row_idx: string | null
  chunk_idx: number | null
  chunk_content: string | null
  usage_score: number
  retrieval_mode: string
}

export interface Message {
  actor: 'user' | 'assistant'
  text: string
  timestamp?: string
  small_talk?: boolean
  sources?: Source[]
  documents_filtered?: string[]
  analysis?: { result: unknown; result_type: string; plan: string } | null
}

export interface KbEntry {
  id: string
  object_name: string
  is_file: boolean
  is_folder: boolean
  size?: number
  tags: string[]
}

export interface Processing {
  embedding_state: 'PENDING' | 'PROCESSING' | 'PROCESSED' | 'ERROR'
  error_details: string
  progress: { done: number; total: number }
}
