import { EXIT } from '../exit-codes.js'

/**
 * Where a file failed: `walk` (its directory could not be listed), `name` (a name the knowledge
 * base cannot hold), `read` (the local file), `upload` (the API refused it), `processing` (ended in
 * ERROR), `timeout` (not finished within `--timeout`).
 */
export type FailureStage = 'walk' | 'name' | 'read' | 'upload' | 'processing' | 'timeout'

export interface Failure {
  /** Path below the ingested directory (`a/b.txt`; a directory ends with `/`). */
  readonly file: string
  /** Its path in the knowledge base. */
  readonly objectName: string
  readonly stage: FailureStage
  /** The problem's `detail` for an upload, `error_details` for processing, else the local error. */
  readonly detail: string
  /** HTTP status and problem `code` of a failed upload. */
  readonly status?: number
  readonly code?: string
  readonly documentId?: string
}

/** The outcome of one `lantern ingest` run. */
export interface IngestSummary {
  readonly directory: string
  /** Knowledge-base folder the directory was mirrored into. */
  readonly path: string
  readonly files: number
  /** Accepted uploads, new documents and replaced ones. */
  readonly uploaded: number
  readonly replaced: number
  /** Already in the knowledge base, so not uploaded (no `--overwrite`). */
  readonly skipped: number
  readonly processed: number
  /** Uploaded and not finished processing when the run ended (with `--no-wait`). */
  readonly unfinished: number
  readonly waited: boolean
  readonly failures: readonly Failure[]
}

/** 0 when every file was skipped or uploaded (and, when waited for, processed); else EXIT.partial. */
export function summaryExitCode(summary: IngestSummary): number {
  return summary.failures.length > 0 ? EXIT.partial : EXIT.ok
}

/** The `--json` output: counts, then every failure. */
export function summaryJson(summary: IngestSummary) {
  return {
    directory: summary.directory,
    path: summary.path,
    files: summary.files,
    uploaded: summary.uploaded,
    replaced: summary.replaced,
    skipped: summary.skipped,
    processed: summary.processed,
    errors: summary.failures.length,
    unfinished: summary.unfinished,
    waited: summary.waited,
    failures: summary.failures.map((f) => ({
      file: f.file,
      object_name: f.objectName,
      stage: f.stage,
      detail: f.detail,
      ...(f.status === undefined ? {} : { status: f.status }),
      ...(f.code === undefined ? {} : { code: f.code }),
      ...(f.documentId === undefined ? {} : { id: f.documentId }),
    })),
  }
}

function reason(f: Failure): string {
  switch (f.stage) {
    case 'walk':
      return `cannot read the directory: ${f.detail}`
    case 'name':
      return `not uploaded: ${f.detail}`
    case 'read':
      return `cannot read the file: ${f.detail}`
    case 'upload':
      return f.status === undefined
        ? `upload failed: ${f.detail}`
        : `upload failed (${f.status} ${f.code}): ${f.detail}`
    case 'processing':
      return `processing ended in ERROR: ${f.detail}`
    case 'timeout':
      return `not processed in time: ${f.detail}`
  }
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** The human summary: one line of counts, then one line per failure with its reason. */
export function summaryText(summary: IngestSummary): string {
  const counts = [
    `${summary.uploaded} uploaded${summary.replaced > 0 ? ` (${summary.replaced} replaced)` : ''}`,
    `${summary.skipped} skipped (already there)`,
    summary.waited ? `${summary.processed} processed` : `processing not waited for (--no-wait)`,
    plural(summary.failures.length, 'error'),
  ]
  const lines = [
    `${plural(summary.files, 'file')} from ${summary.directory} into ${summary.path}: ${counts.join(', ')}`,
  ]
  if (summary.failures.length > 0) {
    lines.push('errors:')
    for (const f of summary.failures) lines.push(`  ${f.file} → ${f.objectName}: ${reason(f)}`)
  }
  return lines.join('\n')
}
