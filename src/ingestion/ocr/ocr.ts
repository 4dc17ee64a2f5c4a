import { existsSync } from 'node:fs'
import { mkdtemp, rm, symlink } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import sharp, { type Sharp } from 'sharp'
import { createWorker, type Worker } from 'tesseract.js'
import { IngestError, ingestErrors } from '../errors.js'
import type { OcrPermit } from './ocr-permit.js'

/** Pixels of an image decoded elsewhere (a PDF's embedded image). */
export interface RawImage {
  readonly data: Uint8Array
  readonly width: number
  readonly height: number
  readonly channels: 1 | 2 | 3 | 4
}

/** An encoded image in any format sharp reads (PNG, JPEG, TIFF, BMP, WebP, GIF…), or raw pixels. */
export type OcrInput = Buffer | RawImage

export interface OcrOptions {
  /** Page (frame) of a multi-page image, 0-based. */
  readonly page?: number
  /** Clockwise rotation in degrees (a multiple of 90) that makes the image upright. */
  readonly rotate?: number
  /** Mirror top-bottom before rotating. */
  readonly flip?: boolean
  /**
   * Whether a badly read image is read again turned a quarter either way (a sideways scan). Meant
   * for whole pages; pictures inside documents (photos, diagrams) would only triple the work.
   */
  readonly sidewaysRetry?: boolean
}

export interface OcrResult {
  /** Recognised text, trimmed; empty when nothing usable was found. */
  readonly text: string
  /** Tesseract's mean word confidence, 0–100. */
  readonly confidence: number
}

/** Reads text from images. One implementation (tesseract.js); tests may pass a fake. */
export interface OcrEngine {
  recognize(image: OcrInput, languages: readonly string[], options?: OcrOptions): Promise<OcrResult>
  terminate(): Promise<void>
}

/** Lines read with a lower mean confidence are noise from graphics, photos and textures. */
const MIN_LINE_CONFIDENCE = 45
/** Below this mean confidence, with little text kept, the image is also read turned a quarter either way. */
const SIDEWAYS_RETRY_BELOW = 50
const SIDEWAYS_MAX_CHARS = 100
// Tesseract reads best at text heights of ~20–40 px: upscale small images, shrink huge ones.
const MIN_SIDE = 1000
const MAX_SIDE = 3300
const IDLE_MS = 60_000
/**
 * How long an engine outlives the document that used it, for the thread's next one: starting an
 * engine costs about a second of CPU (its WebAssembly compiled again), more than a short page's OCR.
 */
const BETWEEN_DOCUMENTS_MS = 2_000
/**
 * Documents an engine reads for its thread before it is handed over to another thread waiting for
 * the OCR permit: a batch of scans split over two threads starts an engine every few documents
 * rather than at each, and the other thread waits at most that many documents.
 */
const HANDOVER_AFTER_DOCUMENTS = 4
const RECOGNITION_TIMEOUT_MS = 120_000
/** Decompression-bomb guard for images (the sharp default is 268 M). */
const MAX_INPUT_PIXELS = 100_000_000
const DATA_FOLDER = '4.0.0_best_int'

const require = createRequire(import.meta.url)

/** Folder holding `<lang>.traineddata.gz` from the installed `@tesseract.js-data/<lang>` package, or null. */
export function ocrLanguageFolder(language: string): string | null {
  if (!/^[a-z_]{3,16}$/.test(language)) return null
  try {
    const folder = join(dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)), DATA_FOLDER)
    return existsSync(join(folder, `${language}.traineddata.gz`)) ? folder : null
  } catch {
    return null
  }
}

/** Whether OCR data for the language is installed (config validation uses this). */
export function isOcrLanguageInstalled(language: string): boolean {
  return ocrLanguageFolder(language) !== null
}

/**
 * Grayscale, upright, white background, contrast-normalised PNG at a size Tesseract reads well.
 * Throws sharp's error for unreadable input.
 */
export async function prepareForOcr(image: OcrInput, options: OcrOptions = {}): Promise<Buffer> {
  let pipeline: Sharp
  if (Buffer.isBuffer(image)) {
    // rotate() without an angle applies the EXIF orientation of photos and scans.
    pipeline = sharp(image, { page: options.page ?? 0, limitInputPixels: MAX_INPUT_PIXELS }).rotate()
  } else {
    pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    if (options.flip) pipeline = pipeline.flip()
    if (options.rotate) pipeline = pipeline.rotate(options.rotate)
  }
  const upright = await pipeline
    .flatten({ background: '#ffffff' })
    .grayscale()
    .png()
    .toBuffer({ resolveWithObject: true })
  const { width, height } = upright.info
  const longest = Math.max(width, height)
  let scale = 1
  if (longest < MIN_SIDE) scale = Math.min(3, MIN_SIDE / longest)
  else if (longest > MAX_SIDE) scale = MAX_SIDE / longest
  let out = sharp(upright.data)
  if (scale !== 1) {
    out = out.resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), {
      kernel: 'lanczos3',
    })
  }
  return out.normalise().png().toBuffer()
}

interface LoadedWorker {
  readonly worker: Worker
  /** Temporary folder with links to several languages' data, removed on terminate. */
  readonly linkFolder: string | null
  queue: Promise<unknown>
  idleTimer: NodeJS.Timeout | null
  /** Whether it read an image since the last document ended (see endDocument). */
  usedInDocument: boolean
  /** Documents it read images for. */
  documents: number
}

/**
 * OCR over tesseract.js, fully offline: language data comes from the installed
 * `@tesseract.js-data/<lang>` packages through an explicit `langPath` (never the CDN) and is never
 * cached to disk. One worker per language set, created on first use, jobs run one at a time per
 * worker; a processing thread ends it with its document or soon after (endDocument), and a worker
 * idle for a minute is terminated in any case.
 */
export class TesseractOcr implements OcrEngine {
  readonly #workers = new Map<string, Promise<LoadedWorker>>()
  #permit: OcrPermit | null = null
  #onPermitWait: ((waiting: boolean) => void) | undefined

  /**
   * Loads an engine only while holding `permit` (one engine in the process at a time), given back
   * when the last engine ends; `onWait` hears when a recognition waits for it and when it goes on.
   */
  usePermit(permit: OcrPermit, onWait?: (waiting: boolean) => void): void {
    this.#permit = permit
    this.#onPermitWait = onWait
  }

  async recognize(image: OcrInput, languages: readonly string[], options: OcrOptions = {}): Promise<OcrResult> {
    const png = await prepareForOcr(image, options)
    const langs = usableLanguages(languages)
    let best = await this.#read(png, langs)
    // No orientation detection offline (no OSD data): a page read badly may be a sideways scan.
    const poor = best.confidence < SIDEWAYS_RETRY_BELOW && best.text.replace(/\s/gu, '').length < SIDEWAYS_MAX_CHARS
    if (options.sidewaysRetry && poor) {
      for (const angle of [90, 270]) {
        const turned = await this.#read(await sharp(png).rotate(angle).png().toBuffer(), langs)
        if (turned.score > best.score) best = turned
      }
    }
    return { text: best.text, confidence: best.confidence }
  }

  async #read(png: Buffer, langs: readonly string[]): Promise<OcrResult & { readonly score: number }> {
    const key = langs.join('+')
    const loaded = await this.#worker(langs)
    const job = loaded.queue.then(() => loaded.worker.recognize(png, {}, { text: true, blocks: true }))
    loaded.queue = job.catch(() => undefined)
    loaded.usedInDocument = true
    this.#touch(key, loaded)
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // A stuck worker would block every later image: drop it, the next job starts a fresh one.
        this.#workers.delete(key)
        void disposeWorker(loaded).then(() => this.#releasePermitIfIdle())
        reject(ingestErrors.limit(`reading one image took longer than ${RECOGNITION_TIMEOUT_MS / 1000} s`))
      }, RECOGNITION_TIMEOUT_MS)
    })
    const { data } = await Promise.race([job, timeout]).finally(() => clearTimeout(timer))
    const confidence = data.confidence ?? 0
    const text = confidentText(data.blocks ?? [])
    return { text, confidence, score: text.replace(/\s/gu, '').length * confidence }
  }

  /**
   * The end of a document. An engine that read images for it is kept a moment for the thread's
   * next document (a batch of scans starts it once, not once per document), unless another thread
   * waits for the permit and it has served HANDOVER_AFTER_DOCUMENTS documents; unused by then, or
   * by the end of a document that needed no OCR, it is ended, so no thread holds one through
   * documents without scans.
   */
  async endDocument(): Promise<void> {
    const wanted = this.#permit?.wanted ?? false
    for (const [key, pending] of [...this.#workers]) {
      const loaded = await pending.catch(() => null)
      if (!loaded) continue
      if (loaded.usedInDocument) loaded.documents += 1
      if (loaded.usedInDocument && !(wanted && loaded.documents >= HANDOVER_AFTER_DOCUMENTS)) {
        loaded.usedInDocument = false
        this.#touch(key, loaded, BETWEEN_DOCUMENTS_MS)
      } else {
        this.#workers.delete(key)
        await disposeWorker(loaded)
      }
    }
    this.#releasePermitIfIdle()
  }

  async terminate(): Promise<void> {
    const all = [...this.#workers.values()]
    this.#workers.clear()
    await Promise.all(all.map(async (pending) => disposeWorker(await pending.catch(() => null))))
    this.#releasePermitIfIdle()
  }

  #worker(langs: readonly string[]): Promise<LoadedWorker> {
    const key = langs.join('+')
    let pending = this.#workers.get(key)
    if (!pending) {
      pending = this.#startWithPermit(langs)
      this.#workers.set(key, pending)
      pending.catch(() => {
        this.#workers.delete(key)
        this.#releasePermitIfIdle()
      })
    }
    return pending
  }

  async #startWithPermit(langs: readonly string[]): Promise<LoadedWorker> {
    await this.#permit?.acquire(this.#onPermitWait)
    return startWorker(langs)
  }

  #releasePermitIfIdle(): void {
    if (this.#workers.size === 0) this.#permit?.release()
  }

  #touch(key: string, loaded: LoadedWorker, idleMs = IDLE_MS): void {
    if (loaded.idleTimer) clearTimeout(loaded.idleTimer)
    const timer = setTimeout(() => {
      void loaded.queue.then(() => {
        // A job that arrived meanwhile replaced the timer: the worker is busy again.
        if (loaded.idleTimer !== timer) return
        this.#workers.delete(key)
        void disposeWorker(loaded).then(() => this.#releasePermitIfIdle())
      })
    }, idleMs)
    timer.unref()
    loaded.idleTimer = timer
  }
}

function usableLanguages(languages: readonly string[]): string[] {
  const installed = [...new Set(languages)].filter(isOcrLanguageInstalled)
  return installed.length > 0 ? installed : ['eng']
}

async function startWorker(langs: readonly string[]): Promise<LoadedWorker> {
  let langPath: string
  let linkFolder: string | null = null
  const [first] = langs
  if (langs.length === 1 && first) {
    langPath = ocrLanguageFolder(first) ?? ''
  } else {
    // tesseract.js reads every language from one langPath; the packages each have their own folder.
    linkFolder = await mkdtemp(join(tmpdir(), 'lantern-ocr-'))
    for (const lang of langs) {
      const folder = ocrLanguageFolder(lang) ?? ''
      await symlink(join(folder, `${lang}.traineddata.gz`), join(linkFolder, `${lang}.traineddata.gz`))
    }
    langPath = linkFolder
  }
  try {
    const worker = await createWorker([...langs], 1, {
      langPath,
      cacheMethod: 'none',
      gzip: true,
      // Without a handler tesseract.js rethrows worker errors outside any promise.
      errorHandler: () => undefined,
    })
    // Images carry no trustworthy resolution; the preprocessing scales text to what 300 dpi gives.
    await worker.setParameters({ user_defined_dpi: '300' }).catch(() => undefined)
    return { worker, linkFolder, queue: Promise.resolve(), idleTimer: null, usedInDocument: false, documents: 0 }
  } catch (error) {
    if (linkFolder) await rm(linkFolder, { recursive: true, force: true })
    // Not the document's fault: transient, so the document is retried once OCR works again.
    throw new IngestError(`the OCR engine failed to start: ${String(error)}`, false, { cause: error })
  }
}

async function disposeWorker(loaded: LoadedWorker | null): Promise<void> {
  if (!loaded) return
  if (loaded.idleTimer) clearTimeout(loaded.idleTimer)
  await loaded.worker.terminate().catch(() => undefined)
  if (loaded.linkFolder) await rm(loaded.linkFolder, { recursive: true, force: true })
}

interface OcrLayoutBlock {
  readonly paragraphs: readonly { readonly lines: readonly { readonly text: string; readonly confidence: number }[] }[]
}

/**
 * The recognised lines Tesseract is reasonably sure of, with a blank line between its
 * paragraphs: a page's text survives, the junk read from pictures around it does not.
 */
function confidentText(blocks: readonly OcrLayoutBlock[]): string {
  const paragraphs: string[] = []
  for (const block of blocks) {
    for (const paragraph of block.paragraphs) {
      const lines = paragraph.lines
        .filter((line) => line.confidence >= MIN_LINE_CONFIDENCE && mostlyAlphanumeric(line.text))
        .map((line) => line.text)
      if (lines.length > 0) paragraphs.push(lines.join('\n'))
    }
  }
  return normaliseOcrText(paragraphs.join('\n\n'))
}

/** Table rules and picture edges read as `| : —`; real lines are mostly letters and digits. */
function mostlyAlphanumeric(line: string): boolean {
  const visible = line.replace(/\s/gu, '')
  const alphanumeric = visible.replace(/[^\p{L}\p{N}]/gu, '')
  return alphanumeric.length > 0 && alphanumeric.length * 2 >= visible.length
}

/** Trims lines, drops trailing spaces and collapses runs of blank lines to one. */
export function normaliseOcrText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+$/u, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** The process-wide OCR engine the parsers use by default. */
export const sharedOcr = new TesseractOcr()

/** Stops the shared engine's workers (shutdown, end of a worker thread). */
export function terminateOcr(): Promise<void> {
  return sharedOcr.terminate()
}
