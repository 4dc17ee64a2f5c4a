import { openZipEntries, readZipEntry } from './zip-entries.js'

/**
 * What mammoth reads a DOCX package through (`convertToHtml({ file })`, mammoth's own
 * `lib/unzip.js`): its parts by name, as bytes, base64 or decoded text.
 */
export interface DocxPackage {
  exists(name: string): boolean
  read(name: string, encoding?: string): Promise<Uint8Array | string>
}

export interface OpenDocxPackage {
  readonly file: DocxPackage
  close(): void
}

/**
 * Opens a DOCX for mammoth through yauzl (parts are inflated only when mammoth asks for them, and
 * yauzl checks each against its declared size), rewriting the Word XML parts on the way: mammoth
 * drops `w:ruby` (phonetic guides over CJK text) with all the text in it, so ruby is turned into
 * plain runs first (see `rubyAsRuns`).
 */
export async function openDocxPackage(path: string): Promise<OpenDocxPackage> {
  const { zip, entries } = await openZipEntries(path)
  const file: DocxPackage = {
    exists: (name) => entries.has(name),
    async read(name, encoding) {
      const entry = entries.get(name)
      if (!entry) throw new Error(`the part "${name}" is missing from the package`)
      const bytes = await readZipEntry(zip, entry)
      if (!encoding) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      if (encoding === 'base64') return bytes.toString('base64')
      const text = new TextDecoder(encoding).decode(bytes)
      return name.startsWith('word/') && name.endsWith('.xml') ? rubyAsRuns(text) : text
    },
  }
  return { file, close: () => zip.close() }
}

const RUBY = /<w:ruby\b[^>]*>([\s\S]*?)<\/w:ruby>/gu
const RUBY_BASE = /<w:rubyBase\b[^>]*>([\s\S]*?)<\/w:rubyBase>/u
const RUBY_TEXT = /<w:rt\b[^>]*>([\s\S]*?)<\/w:rt>/u

/**
 * Word ruby (`<w:ruby>` inside a run: `w:rt` the reading, `w:rubyBase` the base text) as plain runs
 * reading `base(reading)`, e.g. 東京(とうきょう) — the way ruby is written in plain text and the
 * fallback HTML shows (`<rp>`): the base text stays in the sentence and the reading, which readers
 * search for too, follows it. The ruby's enclosing run is closed before and reopened after, since a
 * run cannot hold runs.
 */
export function rubyAsRuns(xml: string): string {
  if (!xml.includes('<w:ruby')) return xml
  return xml.replace(RUBY, (_whole, inner: string) => {
    const base = RUBY_BASE.exec(inner)?.[1] ?? ''
    const reading = RUBY_TEXT.exec(inner)?.[1] ?? ''
    const hasReading = /<w:t\b[^>]*>\s*[^<\s]/u.test(reading)
    const around = hasReading ? `<w:r><w:t>(</w:t></w:r>${reading}<w:r><w:t>)</w:t></w:r>` : ''
    return `</w:r>${base}${around}<w:r>`
  })
}
