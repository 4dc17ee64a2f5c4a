import type { Timestamp } from '../../lib/clock.js'
import { newId } from '../../lib/ids.js'
import type { CsvDelimiter, LoaderType, ProcessingRecord } from '../../storage/ports/knowledge-base.js'
import type { Repositories } from '../../storage/store.js'

/** How a document is to be processed; set at upload, changed by the metadata edit. */
export interface DocumentOptions {
  readonly loaderType: LoaderType
  readonly autoDescription: boolean
  readonly description: string
  readonly descriptionType: 'ai' | 'manual'
  readonly csvDelimiter: CsvDelimiter | null
  readonly imageMinSizeRatio: number | null
}

/** Longest description accepted, in characters. */
export const MAX_DESCRIPTION_LENGTH = 10_000

/** Attempts an ingest job gets before its document ends in ERROR. */
const INGEST_MAX_ATTEMPTS = 5

/** Processing state of a document waiting for (re)ingestion: nothing known yet. */
export function pendingProcessing(): ProcessingRecord {
  return {
    state: 'PENDING',
    errorDetails: '',
    chunkCount: 0,
    docPagesCount: 0,
    startedAt: null,
    endedAt: null,
    duration: null,
    progressDone: 0,
    progressTotal: 0,
  }
}

/**
 * Replaces any queued ingest job of the document by a new one, in the caller's transaction, so a
 * document has at most one job waiting and it runs with the options just committed.
 */
export async function enqueueIngest(
  tx: Repositories,
  companyId: string,
  documentId: string,
  now: Timestamp,
): Promise<void> {
  await tx.jobs.cancelQueued(companyId, documentId, now)
  await tx.jobs.enqueue({
    id: newId(),
    companyId,
    kind: 'ingest',
    subjectId: documentId,
    payload: { documentId },
    maxAttempts: INGEST_MAX_ATTEMPTS,
    runAfter: now,
    createdAt: now,
  })
}
