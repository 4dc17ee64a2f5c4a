import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { expect } from 'vitest'
import { IngestError } from '../../src/ingestion/errors.js'
import type { ParsedDocument } from '../../src/ingestion/model.js'
import { type OcrEngine, type OcrInput, type OcrOptions, prepareForOcr } from '../../src/ingestion/ocr/ocr.js'

export interface OcrCall {
  readonly width: number
  readonly height: number
  readonly options: OcrOptions
}

/**
 * An OCR engine that runs the real preprocessing (so every image really goes through sharp) and
 * answers `text` instead of running Tesseract: fast enough for corpus passes, and it records calls.
 */
export function fakeOcr(text = ''): OcrEngine & { readonly calls: OcrCall[] } {
  const calls: OcrCall[] = []
  return {
    calls,
    async recognize(image: OcrInput, _languages: readonly string[], options: OcrOptions = {}) {
      const png = await prepareForOcr(image, options)
      const { width = 0, height = 0 } = await sharp(png).metadata()
      calls.push({ width, height, options })
      return { text, confidence: text ? 90 : 0 }
    },
    async terminate() {},
  }
}

/** Black text on white, rendered by sharp from SVG (DejaVu fonts), as PNG. */
export async function textImage(lines: readonly string[], width = 1200, lineHeight = 110): Promise<Buffer> {
  const height = lineHeight * (lines.length + 1)
  const text = lines
    .map(
      (line, i) => `<text x="40" y="${lineHeight * (i + 1)}" font-family="DejaVu Sans" font-size="56">${line}</text>`,
    )
    .join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

/** Rejects with a clear message when `promise` has not settled within `ms` (no hang passes). */
export function withTimeout<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no result after ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** The rejection of `promise`, asserted to be an IngestError. */
export async function ingestFailure(promise: Promise<unknown>): Promise<IngestError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(IngestError)
  return error as IngestError
}

/** Every text of a parsed document, in order (table cells joined by spaces). */
export function allText(doc: ParsedDocument): string {
  return doc.blocks
    .map((block) =>
      block.kind === 'table'
        ? [block.header ?? [], ...block.rows.map((row) => row.cells)].map((cells) => cells.join(' ')).join('\n')
        : block.text,
    )
    .join('\n')
}

/** MANIFEST.csv tags of the robustness corpus, by relative path. */
export function manifestTags(corpus: string): Map<string, string> {
  const tags = new Map<string, string>()
  const lines = readFileSync(join(corpus, 'MANIFEST.csv'), 'utf8').split('\n').slice(1)
  for (const line of lines) {
    const columns = line.split(',')
    if (columns[0]) tags.set(join(corpus, columns[0]), columns.at(-1) ?? '')
  }
  return tags
}
