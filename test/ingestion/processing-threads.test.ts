import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { mutoolRuns } from '../../src/ingestion/parsers/pdf-mutool.js'
import type { ChunkDraft, DocumentToProcess } from '../../src/ingestion/pipeline/pipeline-types.js'
import { ProcessingThreads, type ThreadPolicy } from '../../src/ingestion/threads/run-in-thread.js'
import { tinyPdf } from '../support/knowledge-base.js'
import { textImage } from './ocr-support.js'
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
    mutool: null,
    soffice: null,
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
      const chunks: ChunkDraft[] = []
      const summary = await threads.run(
        note(n),
        () => {},
        async (batch) => {
          chunks.push(...batch)
        },
      )
      expect(summary.chunkCount).toBe(chunks.length)
      expect(chunks[0]?.text).toContain(`Note ${n}`)
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

/** A CSV of `rows` rows: 25,000 rows make more than one batch of chunks. */
function table(rows: number, timeBudgetMs = LIMITS.timeBudgetMs): DocumentToProcess {
  const filePath = join(dir, `table-${rows}.csv`)
  const lines = ['id,city,amount']
  for (let i = 1; i <= rows; i++) lines.push(`${i},City ${i % 97},${(i * 7) % 1000}.50`)
  writeFileSync(filePath, `${lines.join('\n')}\n`)
  return {
    ...note(0),
    objectName: '/tables/orders.csv',
    filename: 'orders.csv',
    mimeType: 'text/csv',
    filePath,
    limits: { ...LIMITS, timeBudgetMs },
    chunkTokens: 60,
  }
}

describe('processing threads: chunks handed over in batches', () => {
  it('hands a large document over in batches, in idx order, waiting for each to be taken', async () => {
    const threads = new ProcessingThreads()
    try {
      const batches: number[][] = []
      let taking = false
      const summary = await threads.run(
        table(25_000),
        () => {},
        async (batch, language) => {
          expect(taking).toBe(false)
          expect(language).toBe('en')
          taking = true
          await new Promise((resolve) => setTimeout(resolve, 20))
          batches.push(batch.map((chunk) => chunk.idx))
          taking = false
        },
      )
      const idxs = batches.flat()
      expect(batches.length).toBeGreaterThan(1)
      expect(idxs).toEqual(Array.from({ length: summary.chunkCount }, (_, i) => i))
    } finally {
      await threads.close()
    }
  }, 60_000)

  it('does not count the time a batch takes to be stored against the time budget', async () => {
    const threads = new ProcessingThreads()
    try {
      let batches = 0
      // Each batch waits longer than the whole budget; processing itself stays well within it.
      const summary = await threads.run(
        table(25_000, 4000),
        () => {},
        async () => {
          batches += 1
          await new Promise((resolve) => setTimeout(resolve, 4500))
        },
      )
      expect(batches).toBeGreaterThan(1)
      expect(summary.chunkCount).toBeGreaterThan(0)
    } finally {
      await threads.close()
    }
  }, 60_000)

  it('fails the document with the error of a batch that could not be taken', async () => {
    const threads = new ProcessingThreads()
    try {
      await expect(
        threads.run(
          table(6000),
          () => {},
          async () => {
            throw new Error('store unavailable')
          },
        ),
      ).rejects.toThrow('store unavailable')
      // The thread that waited for the batch is not reused; the next document gets a working one.
      const next = await threads.run(
        note(9),
        () => {},
        async () => {},
      )
      expect(next.chunkCount).toBeGreaterThan(0)
    } finally {
      await threads.close()
    }
  }, 60_000)
})

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open }
}

describe('processing threads: at most maxThreads, freed at the last batch', () => {
  it('gives the thread to the next document once the last batch is handed over, before it is stored', async () => {
    const threads = new ProcessingThreads({ maxThreads: 1 })
    try {
      const store = gate()
      let firstSettled = false
      const first = threads
        .run(
          note(0),
          () => {},
          async () => store.opened,
        )
        .finally(() => {
          firstSettled = true
        })
      // The only thread reads the second document while the first one's batch waits for the store.
      const second = await threads.run(
        note(1),
        () => {},
        async () => {},
      )
      expect(second.chunkCount).toBeGreaterThan(0)
      expect(firstSettled).toBe(false)
      store.open()
      expect((await first).chunkCount).toBeGreaterThan(0)
      expect(threads.threadsStarted).toBe(1)
    } finally {
      await threads.close()
    }
  }, 60_000)

  it('hands the next document to the thread before its last batch is stored', async () => {
    const threads = new ProcessingThreads({ maxThreads: 1 })
    try {
      const waitingWhenStored: number[] = []
      // Records, when the first document's only batch reaches the store, how many documents still wait for a thread.
      const first = threads.run(
        note(0),
        () => {},
        async () => {
          waitingWhenStored.push(threads.documentsWaiting)
        },
      )
      const second = threads.run(
        note(1),
        () => {},
        async () => {},
      )
      expect(threads.documentsWaiting).toBe(1)
      expect((await first).chunkCount).toBeGreaterThan(0)
      // The second document already had the thread when the first one's only batch was stored.
      expect(waitingWhenStored).toEqual([0])
      expect((await second).chunkCount).toBeGreaterThan(0)
    } finally {
      await threads.close()
    }
  }, 60_000)

  it('keeps a document waiting while every thread is busy, and lets it go when its job is aborted', async () => {
    const threads = new ProcessingThreads({ maxThreads: 1 })
    try {
      const store = gate()
      let batches = 0
      // Several batches: the thread waits for the first to be stored, so it stays busy.
      const first = threads.run(
        table(25_000),
        () => {},
        async () => {
          batches += 1
          await store.opened
        },
      )
      const controller = new AbortController()
      let started = false
      const waiting = threads.run(
        note(2),
        () => {
          started = true
        },
        async () => {},
        controller.signal,
      )
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(started).toBe(false)
      controller.abort(new Error('lease lost'))
      await expect(waiting).rejects.toThrow('lease lost')
      store.open()
      expect((await first).chunkCount).toBeGreaterThan(0)
      expect(batches).toBeGreaterThan(1)
      expect(threads.threadsStarted).toBe(1)
    } finally {
      await threads.close()
    }
  }, 60_000)
})

describe('processing threads: one OCR engine at a time', () => {
  it('reads two images at once in two threads, one after the other, both completely', async () => {
    const threads = new ProcessingThreads()
    try {
      const scans = await Promise.all(
        [0, 1].map(async (n) => {
          const filePath = join(dir, `scan-${n}.png`)
          writeFileSync(filePath, await textImage([`Invoice number 4821${n}`, 'Total due 1250 EUR']))
          return { ...note(n), documentId: `scan-${n}`, filename: `scan-${n}.png`, mimeType: 'image/png', filePath }
        }),
      )
      const texts = await Promise.all(
        scans.map(async (scan) => {
          const chunks: ChunkDraft[] = []
          await threads.run(
            scan,
            () => {},
            async (batch) => {
              chunks.push(...batch)
            },
          )
          return chunks.map((chunk) => chunk.text).join(' ')
        }),
      )
      expect(texts[0]).toContain('48210')
      expect(texts[1]).toContain('48211')
      expect(threads.threadsStarted).toBe(2)
    } finally {
      await threads.close()
    }
  }, 120_000)
})

/** The nice value of each thread of this process (Linux `/proc`), by thread id. */
function nicenessByThread(): Map<string, number> {
  const result = new Map<string, number>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      // Fields after the command's closing parenthesis: state is field 3, nice field 19.
      result.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]))
    } catch {
      // The thread ended while the list was read.
    }
  }
  return result
}

describe.skipIf(!existsSync('/proc/thread-self'))("processing threads: below the pool thread's priority", () => {
  it('runs the processing thread at nice 10 and leaves the calling thread as it was', async () => {
    const own = readFileSync('/proc/thread-self/stat', 'utf8')
    const ownTid = own.slice(0, own.indexOf(' '))
    const before = nicenessByThread()
    const threads = new ProcessingThreads()
    try {
      await threads.run(
        note(0),
        () => {},
        async () => {},
      )
      const lowered = [...nicenessByThread()].filter(([tid, nice]) => nice === 10 && before.get(tid) !== 10)
      expect(lowered).toHaveLength(1)
      expect(nicenessByThread().get(ownTid)).toBe(before.get(ownTid))
    } finally {
      await threads.close()
    }
  }, 60_000)
})

/**
 * Pids of this process's children (zombies included) that are shells: the mutool shells. Run from
 * source, a processing thread also starts tsx's esbuild, which this test does not judge.
 */
function shellPids(): Set<number> {
  const shells = new Set<number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent === process.pid && command === 'sh') shells.add(Number(entry))
    } catch {
      // Ended meanwhile.
    }
  }
  return shells
}

describe.skipIf(!mutoolRuns() || !existsSync('/proc'))('processing threads: child processes', () => {
  it('ends the mutool shell of a thread that is replaced or closed, leaving no zombie', async () => {
    const before = shellPids()
    const threads = new ProcessingThreads({ maxDocuments: 1 })
    try {
      for (const n of [1, 2]) {
        const filePath = join(dir, `page-${n}.pdf`)
        writeFileSync(filePath, tinyPdf(`Page ${n} of the travel policy`))
        const chunks: ChunkDraft[] = []
        await threads.run(
          { ...note(n), filename: `page-${n}.pdf`, mimeType: 'application/pdf', filePath, mutool: 'mutool' },
          () => {},
          async (batch) => {
            chunks.push(...batch)
          },
        )
        expect(chunks.map((chunk) => chunk.text).join(' ')).toContain(`Page ${n} of the travel policy`)
      }
      expect(threads.threadsStarted).toBe(2)
    } finally {
      await threads.close()
    }
    const left = [...shellPids()].filter((pid) => !before.has(pid))
    expect(left).toEqual([])
  }, 60_000)

  it('ends the shell and the command of a thread stopped mid-document, leaving no zombie', async () => {
    const before = shellPids()
    // A mutool that hangs: the document's time budget runs out while the thread waits for it.
    const mutool = join(dir, 'hanging-mutool')
    writeFileSync(mutool, `#!/bin/sh\nexec sleep ${HANGING_SECONDS}\n`, { mode: 0o755 })
    const filePath = join(dir, 'hanging.pdf')
    writeFileSync(filePath, tinyPdf('A page mutool never reads'))
    const threads = new ProcessingThreads()
    try {
      const run = threads.run(
        {
          ...note(1),
          filename: 'hanging.pdf',
          mimeType: 'application/pdf',
          filePath,
          mutool,
          limits: { ...LIMITS, timeBudgetMs: 1500 },
        },
        () => {},
        async () => {},
      )
      await expect(run).rejects.toThrow(/processing took longer than 1.5 s/)
      // Killed with its shell; the kernel may take a moment to end it on a busy machine.
      await expect.poll(hangingCommands, { timeout: 2000 }).toEqual([])
      expect([...shellPids()].filter((pid) => !before.has(pid))).toEqual([])
    } finally {
      await threads.close()
    }
  }, 60_000)
})

/** A duration no other process of the machine sleeps for, to find the hanging mutool's `sleep`. */
const HANGING_SECONDS = '29.517'

/** Pids of live processes running the hanging mutool's `sleep`. */
function hangingCommands(): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue
    try {
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0]
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (state !== 'Z' && command[0] === 'sleep' && command[1] === HANGING_SECONDS) pids.push(Number(entry))
    } catch {
      // Ended meanwhile.
    }
  }
  return pids
}
