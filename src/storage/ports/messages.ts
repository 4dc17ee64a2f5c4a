import type { Timestamp } from '../../lib/clock.js'

/** A stored source of an assistant message (spec 2.6 `sources` entry, plus what send-message returned). */
export interface StoredSource {
  readonly documentId: string
  readonly objectName: string
  readonly filename: string
  readonly description: string
  readonly documentType: string
  /** Page as a number for the stored-message shape (first page of a range); null when none. */
  readonly page: number | null
  readonly pageNumber: string | null
  readonly rowIdx: string | null
  readonly chunkIdx: number | null
  /** Excerpt (`page_content`). */
  readonly content: string
  /** Tag names of the document. */
  readonly tags: readonly string[]
  readonly usageScore: number
  readonly retrievalMode: 'similarity' | 'lookup'
}

export interface MessageRecord {
  readonly id: string
  readonly companyId: string
  readonly chatId: string
  readonly actor: 'user' | 'assistant'
  readonly text: string
  readonly createdAt: Timestamp
  /** Spec 2.6 `tags`: array of {path: [tag names]} objects, stored as given. */
  readonly tags: ReadonlyArray<Readonly<Record<string, readonly string[]>>>
  readonly sources: readonly StoredSource[]
}

export interface MessagesRepository {
  insert(message: MessageRecord): Promise<void>
  /** The `size` newest messages strictly before `before`, returned oldest first. */
  history(companyId: string, chatId: string, before: Timestamp, size: number): Promise<MessageRecord[]>
  /** Every message of a chat, oldest first (export). */
  listForChat(companyId: string, chatId: string): Promise<MessageRecord[]>
}
