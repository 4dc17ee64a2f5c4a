import { constants } from 'node:fs'
import { access } from 'node:fs/promises'
import { ApiError, type LanternApi, TransferError } from './api-client.js'
import { forEachConcurrently } from './pool.js'
import type { Progress } from './progress.js'
import type { Failure } from './summary.js'
import type { LocalFile } from './walk.js'

export interface UploadJob {
  readonly files: readonly LocalFile[]
  /** Canonical knowledge-base folder the walked directory maps to: `/` or `/docs/`. */
  readonly base: string
  /** Tag ids to attach; undefined attaches none (and an overwrite keeps the document's tags). */
  readonly tagIds: readonly string[] | undefined
  readonly overwrite: boolean
  readonly concurrency: number
}

/** A file the API accepted. */
export interface UploadedFile {
  readonly file: LocalFile
  readonly objectName: string
  readonly id: string
  /** false when an existing document was replaced (`--overwrite`). */
  readonly created: boolean
}

export interface UploadResult {
  readonly uploaded: UploadedFile[]
  readonly skipped: number
  readonly failures: Failure[]
}

// The knowledge base refuses these in a path (DESIGN §4); the multipart parser would also cut a
// name at a backslash, so such a file is reported instead of being stored under another name.
function nameProblem(segment: string): string | undefined {
  if (segment.includes('\\')) return 'the name contains a backslash, which the knowledge base does not accept'
  for (const char of segment) {
    const code = char.codePointAt(0) ?? 0
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      return 'the name contains a control character, which the knowledge base does not accept'
    }
  }
  return undefined
}

/** The knowledge-base folder of a file: the base folder plus the file's directories, NFC. */
export function folderOf(base: string, file: LocalFile): string {
  return file.folders.length === 0 ? base : `${base}${file.folders.map((f) => f.normalize('NFC')).join('/')}/`
}

/**
 * Uploads every file into the folder mirroring its directory, `concurrency` at a time. Without
 * `overwrite`, each target folder is listed first (once) and files whose name is already there are
 * skipped; with it, every file is sent with `overwrite=true`. A file that fails is recorded in
 * `failures` and the others go on; an unreachable server stops the run (UnreachableError).
 */
export async function uploadTree(api: LanternApi, job: UploadJob, progress: Progress): Promise<UploadResult> {
  const uploaded: UploadedFile[] = []
  const failures: Failure[] = []
  let skipped = 0
  let done = 0
  const listings = new Map<string, Promise<Set<string>>>()
  const existing = (folder: string) => {
    let listing = listings.get(folder)
    if (!listing) {
      listing = api.fileNames(folder)
      // Each file of the folder reports the failure; none is left unhandled meanwhile.
      listing.catch(() => undefined)
      listings.set(folder, listing)
    }
    return listing
  }

  progress.begin('uploading', job.files.length)
  const tally = () => `${uploaded.length} uploaded, ${skipped} skipped, ${failures.length} errors`

  // Ended even when the run stops, so a terminal gets its cursor back.
  try {
    await forEachConcurrently(job.files, job.concurrency, async (file) => {
      const folder = folderOf(job.base, file)
      const name = file.name.normalize('NFC')
      const objectName = `${folder}${name}`
      const fail = (failure: Omit<Failure, 'file' | 'objectName'>): void => {
        failures.push({ file: file.relativePath, objectName, ...failure })
      }
      try {
        const problem = [...file.folders, file.name].map(nameProblem).find((p) => p !== undefined)
        if (problem) return fail({ stage: 'name', detail: problem })
        if (!job.overwrite && (await existing(folder)).has(name)) {
          skipped++
          return
        }
        await access(file.absolutePath, constants.R_OK)
        const result = await api.upload(file.absolutePath, name, {
          path: folder,
          tags: job.tagIds,
          overwrite: job.overwrite,
        })
        uploaded.push({ file, objectName, ...result })
      } catch (error) {
        if (error instanceof ApiError) {
          return fail({ stage: 'upload', status: error.status, code: error.code, detail: error.detail })
        }
        if (error instanceof TransferError) return fail({ stage: 'upload', detail: error.message })
        // A system error (ENOENT, EACCES…) is about the local file: report it and go on.
        if (typeof (error as { syscall?: unknown } | null)?.syscall === 'string') {
          return fail({ stage: 'read', detail: (error as Error).message })
        }
        throw error
      } finally {
        done++
        progress.update(done, tally())
      }
    })
  } finally {
    progress.end()
  }
  return { uploaded, skipped, failures }
}
