import { createHash } from 'node:crypto'
import { existsSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commandWorks } from '../../lib/command-probe.js'
import { CommandFailure, type CommandOutput, CommandShell } from '../../lib/command-shell.js'
import { ingestErrors } from '../errors.js'
import type { PdfTextItem } from './pdf-lines.js'
import { readStextJson, StextJsonError } from './stext-json.js'

/**
 * PDF text through MuPDF's `mutool` (Debian `mupdf-tools`), run as a separate process: about three
 * times faster than pdf.js (2.0 ms against 6.5 ms a page of the filings, layout included), with the
 * same page geometry. Only the text layer comes from here; pictures (OCR) still come from pdf.js.
 * MuPDF is AGPL: Lantern only runs the unmodified program the machine has installed.
 */

/**
 * Pages drawn by one run: bounds the JSON held at once (about 25 KB a page of a filing), while
 * keeping runs few (each starts mutool and opens the document again).
 */
export const PAGES_PER_RUN = 200
/** Output of one run larger than this is refused (a hostile page with millions of glyphs). */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024
/** Address space of one mutool run, in KiB: it parses one document, never images for text. */
const ADDRESS_SPACE_KIB = 4 * 1024 * 1024
const MAX_STDERR_CHARS = 4096
/**
 * Time one run may take: a text page takes about 2 ms, so this is generous on a loaded machine,
 * yet a page MuPDF chokes on (a malformed content stream it retries for minutes) goes to pdf.js.
 */
export function mutoolTimeoutMs(pages: number): number {
  return 5_000 + 250 * pages
}

/**
 * The document's page count, title and whether it needs a password, from MuPDF's own JavaScript
 * (`mutool run`): `getMetaData` decodes the PDF string of the title, and `needsPassword` is false
 * when the empty user password opens the document. It exits with status 3 after a document that
 * needs a password or has no pages or more than the cap (its second argument), so the drawing
 * chained after it (see mutoolOpen) does not start.
 */
const INFO_SCRIPT = `var doc = new Document(scriptArgs[0]);
if (doc.needsPassword()) { print(JSON.stringify({ needsPassword: true })); quit(3); }
var pages = doc.countPages();
print(JSON.stringify({ needsPassword: false, pages: pages, title: doc.getMetaData("info:Title") || null }));
if (!(pages >= 1 && pages <= Number(scriptArgs[1]))) quit(3);
`

export interface MutoolDocument {
  readonly pageCount: number
  readonly title: string | null
  /** MuPDF's first error reading the document (it repaired what it could), or null. */
  readonly damage: string | null
}

/** Text items of one page, in MuPDF's reading order, with pdf.js's geometry conventions. */
export type MutoolPage = readonly PdfTextItem[]

/** mutool could not read the document (or not in reasonable time): the caller reads it with pdf.js instead. */
export class MutoolFailure extends Error {
  constructor(
    message: string,
    /** What MuPDF found wrong with the document itself, when that is why (see MutoolDocument.damage). */
    readonly damage: string | null = null,
  ) {
    super(message)
  }
}

/**
 * Whether `command` runs and can write MuPDF's structured text as JSON (mupdf-tools 1.19 and
 * later); asked once per process.
 */
export function mutoolRuns(command = 'mutool'): boolean {
  return commandWorks(command, ['draw'], 10_000, (probe) => /stext\.json/u.test(`${probe.stdout}${probe.stderr}`))
}

/**
 * Page count and title, and the text items of the first `firstPages` pages, from one run (the
 * info script, then mutool draw): most documents are read whole by it. A document that needs a
 * password ends here, like in pdf.js; one MuPDF counts no pages or more than `maxPages` in is a
 * MutoolFailure (pdf.js counts the pages it finds).
 */
export async function mutoolOpen(
  command: string,
  path: string,
  firstPages: number,
  maxPages: number,
  /** At most this long in all; the drawing gets mutoolTimeoutMs of the pages it draws. */
  timeoutMs: number,
): Promise<{ document: MutoolDocument; pages: MutoolPage[] }> {
  // The time for one page until the info line says how many there are to draw.
  const { stdout, stderr, code } = await run(
    `"$1" run "$2" "$3" "$4" && exec "$1" draw -q -F stext.json -o - "$3" "$5"`,
    [command, infoScript(), path, String(maxPages), `1-${firstPages}`],
    Math.min(timeoutMs, mutoolTimeoutMs(1)),
    (line) => {
      const pages = /"pages":(\d+)/u.exec(line)?.[1]
      return Math.min(timeoutMs, mutoolTimeoutMs(Math.min(firstPages, Number(pages ?? 1))))
    },
  )
  const lineEnd = stdout.indexOf(0x0a)
  let info: { needsPassword?: unknown; pages?: unknown; title?: unknown }
  try {
    info = JSON.parse(stdout.toString('utf8', 0, lineEnd < 0 ? stdout.length : lineEnd)) as typeof info
  } catch {
    throw new MutoolFailure(`mutool could not open the document: ${firstLine(stderr)}`, firstError(stderr))
  }
  if (info.needsPassword === true) throw ingestErrors.passwordProtected()
  // pdf.js rejects a document without pages with its own reason.
  if (typeof info.pages !== 'number' || info.pages < 1) {
    throw new MutoolFailure('mutool found no pages', firstError(stderr) ?? 'MuPDF finds no pages')
  }
  // MuPDF believes a damaged page tree's /Count (a fuzzed file claims 1,410,065,407 pages) where
  // pdf.js counts the pages it finds: past the cap, pdf.js decides.
  if (info.pages > maxPages) throw new MutoolFailure(`mutool counts ${info.pages} pages`, firstError(stderr))
  if (code !== 0) throw runFailure(stderr, code)
  const title = typeof info.title === 'string' ? info.title.replace(/\s+/gu, ' ').trim() : ''
  const pages = stextPages(stdout.subarray(lineEnd + 1), stderr, Math.min(firstPages, info.pages))
  return { document: { pageCount: info.pages, title: title || null, damage: firstError(stderr) }, pages }
}

/**
 * The text items of pages `first`–`last` (1-based, inclusive), one array per page. A page MuPDF
 * cannot interpret comes back empty (mutool draws the others and says so on stderr).
 */
export async function mutoolPages(
  command: string,
  path: string,
  first: number,
  last: number,
  timeoutMs: number,
): Promise<MutoolPage[]> {
  const { stdout, stderr, code } = await run(
    `exec "$1" draw -q -F stext.json -o - "$2" "$3"`,
    [command, path, `${first}-${last}`],
    timeoutMs,
  )
  if (code !== 0) throw runFailure(stderr, code)
  return stextPages(stdout, stderr, last - first + 1)
}

/**
 * MuPDF's structured text of `expected` pages, as text items per page. MuPDF's lines are runs of
 * text cut at wide gaps (a table's cells are separate lines on one baseline), which is what
 * pdf.js's text items are to the layout: the same conversion applies, with y turned upwards.
 * MuPDF writes whole points and font sizes; the layout's thresholds are wider than that.
 */
function stextPages(json: Buffer, stderr: string, expected: number): MutoolPage[] {
  const pages: PdfTextItem[][] = Array.from({ length: expected }, () => [])
  let count: number
  try {
    count = readStextJson(json, (page, line) => {
      if (!line.text) return
      const vertical = line.wmode === 1
      const size = line.size || (vertical ? line.w : line.h) || 1
      pages[page]?.push({
        str: line.text,
        transform: vertical ? [0, size, -size, 0, line.x, -line.y] : [size, 0, 0, size, line.x, -line.y],
        width: vertical ? line.h : line.w,
        height: size,
      })
    })
  } catch (error) {
    if (error instanceof StextJsonError) throw new MutoolFailure(`mutool gave no readable text: ${firstLine(stderr)}`)
    throw error
  }
  if (count !== expected) throw new MutoolFailure(`mutool drew ${count} of the pages asked for`)
  return pages
}

/** The info script, written once per machine under a name that is its content's hash. */
let scriptPath: string | undefined
function infoScript(): string {
  if (scriptPath && existsSync(scriptPath)) return scriptPath
  const hash = createHash('sha256').update(INFO_SCRIPT).digest('hex').slice(0, 16)
  const path = join(tmpdir(), `lantern-mutool-info-${hash}.js`)
  if (!existsSync(path)) {
    const temporary = `${path}.${process.pid}.${Date.now()}`
    writeFileSync(temporary, INFO_SCRIPT)
    renameSync(temporary, path)
  }
  scriptPath = path
  return path
}

/**
 * The shell this thread starts mutool from (see CommandShell): the address space of each run is
 * capped (a memory guard the processing thread's heap limit does not give a child process), a run
 * is killed at its time limit, so a hostile file cannot keep it running, and only the start of
 * stderr is kept (a broken content stream can make MuPDF print millions of warnings).
 */
let shell: CommandShell | undefined

/** Ends this thread's mutool shell, before the thread ends (see CommandShell.close). */
export async function endMutoolShell(): Promise<void> {
  const ending = shell?.close()
  shell = undefined
  await ending
}

async function run(
  script: string,
  args: readonly string[],
  timeoutMs: number,
  retime?: (firstLine: string) => number,
): Promise<CommandOutput> {
  shell ??= new CommandShell({
    addressSpaceKib: ADDRESS_SPACE_KIB,
    maxOutputBytes: MAX_OUTPUT_BYTES,
    maxStderrChars: MAX_STDERR_CHARS,
    label: 'mutool',
  })
  try {
    return await shell.run({ script, args, timeoutMs, ...(retime ? { retime } : {}) })
  } catch (error) {
    if (error instanceof CommandFailure) throw new MutoolFailure(error.message)
    throw error
  }
}

function runFailure(stderr: string, code: number): MutoolFailure {
  return new MutoolFailure(`mutool failed: ${firstLine(stderr) || `exit code ${code}`}`)
}

/** MuPDF's first error (its warnings, such as a missing ICC module, are no fault of the document). */
function firstError(stderr: string): string | null {
  const line = /^error: (.+)$/mu.exec(stderr)?.[1]?.trim()
  return line ? `MuPDF: ${line}` : null
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? ''
  )
}
