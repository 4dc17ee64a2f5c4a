import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { DocumentToProcess } from '../../src/ingestion/pipeline-types.js'
import { ProcessingThreads, type ThreadPolicy } from '../../src/ingestion/run-in-thread.js'
import { LIMITS } from './text-formats-support.js'

const dir = mkdtempSync(join(tmpdir(), 'lantern-threads-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function note(n: number): DocumentToProcess {
  const filePath = join(dir, `note-${n}.md`)
  writeFileSync(filePath, `# Note ${n}\n\nTravel requests are approved by the line manager.\n`)
  return {
    companyId: 'company',
    documentId: `doc-${n}`,
    objectName: `/notes/note-${n}.md`,
    filename: `note-${n}.md`,
    mimeType: 'text/markdown',
    filePath,
    options: { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0.1 },
    limits: LIMITS,
    ocrLanguages: ['eng'],
    autoDescription: false,
    chunkTokens: 200,
    chunkOverlapTokens: 20,
  }
}

/** Processes `count` documents one after the other; returns how many threads that took. */
async function threadsFor(count: number, policy?: ThreadPolicy): Promise<number> {
  const threads = new ProcessingThreads(policy)
  try {
    for (let n = 0; n < count; n++) {
      const processed = await threads.run(note(n), () => {})
      expect(processed.chunks[0]?.text).toContain(`Note ${n}`)
    }
    return threads.threadsStarted
  } finally {
    await threads.close()
  }
}

describe('processing threads: reused while healthy, replaced when they hold too much', () => {
  it('reuses one thread for documents that leave its heap small', async () => {
    expect(await threadsFor(3)).toBe(1)
  }, 60_000)

  it('replaces a thread whose heap stays above the limit after a document', async () => {
    // Every thread holds more than one byte after a document: each document gets a fresh one.
    expect(await threadsFor(3, { maxRetainedHeapBytes: 1 })).toBe(3)
  }, 60_000)

  it('replaces a thread after its number of documents', async () => {
    expect(await threadsFor(4, { maxDocuments: 2 })).toBe(2)
  }, 60_000)
})
