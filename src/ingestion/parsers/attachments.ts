import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { detectMimeType, UNKNOWN_MIME_TYPE } from '../detection/file-types.js'
import type { Block, ParseInput, Parser } from '../model.js'
import { toIngestError } from './failures.js'

/**
 * The files attached to a message (.eml, .msg), each read by the parser for its sniffed type and
 * put under a heading "Attachment: <name>", or noted with its name, type and size when it is not
 * read. The parsers come from the caller (the registry), so this module and the message parsers
 * never import the registry that loads them.
 */

/** Attachments read per message; the rest are only noted. */
const MAX_ATTACHMENTS_READ = 20
/** An attachment larger than this is only noted. */
const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024
/** All attachments read from one message, together. */
const MAX_ATTACHMENTS_TOTAL_BYTES = 100 * 1024 * 1024

/** The parsers attachments are read with: the registry's `parserFor` and `supportedMimeTypes`. */
export interface ParserLookup {
  parserFor(mimeType: string): Parser
  supportedMimeTypes(): string[]
}

export interface Attachment {
  /** As the message names it; a path is cut to its last part. */
  readonly name: string
  /** As the message declares it. */
  readonly contentType: string
  readonly content: Buffer
}

/** What has been read from one message so far. */
export interface AttachmentBudget {
  read: number
  bytes: number
}

export const newAttachmentBudget = (): AttachmentBudget => ({ read: 0, bytes: 0 })

/**
 * Reads an attachment stored at `path` as `mimeType` (sniffed, else declared): its blocks, or why
 * it was not read. Messages nested in messages are read by the caller, which counts their depth.
 */
export type ReadAttachment = (
  mimeType: string,
  path: string,
  name: string,
  content: Buffer,
) => Promise<Block[] | string>

/** Reads an attachment with the parser registered for its type; '(not a readable type)' when there is none. */
export function readWithParsers(parsers: ParserLookup, input: ParseInput): ReadAttachment {
  const supported = new Set(parsers.supportedMimeTypes())
  return async (mimeType, path, name) => {
    if (!supported.has(mimeType)) return '(not a readable type)'
    const parsed = await parsers.parserFor(mimeType).parse({
      ...input,
      path,
      mimeType,
      filename: name,
      progress: () => {},
    })
    return [...parsed.blocks]
  }
}

/** Headings of embedded content move `by` levels down (at most 6); page numbers of an attachment are not the message's. */
export function nestBlocks(blocks: readonly Block[], by: number, imagePrefix: string): Block[] {
  return blocks.map((block): Block => {
    const { page: _page, ...rest } = block
    if (rest.kind === 'heading') return { ...rest, level: Math.min(6, rest.level + by) }
    if (rest.kind === 'image') return { ...rest, imageId: `${imagePrefix}${rest.imageId}` }
    return rest
  })
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`
  return `${bytes} bytes`
}

/**
 * One attachment (the `index`th of its message, 1-based) as blocks: its type is sniffed from a
 * temporary copy (the declared type is used when the sniffed one is unknown, or unreadable while
 * the declared one is readable), then `read` reads it. Past the count or size limits, unreadable or
 * damaged, it is noted instead; a transient failure (the disk) propagates.
 */
export async function attachmentBlocks(
  attachment: Attachment,
  index: number,
  budget: AttachmentBudget,
  supported: ReadonlySet<string>,
  read: ReadAttachment,
): Promise<Block[]> {
  const name = basename(attachment.name.replace(/\\/g, '/')) || `attachment ${index}`
  const size = attachment.content.length
  const label = `Attachment: ${name}`
  const note = (reason: string): Block[] => [
    { kind: 'heading', level: 2, text: label },
    { kind: 'paragraph', text: `${name} (${attachment.contentType}, ${sizeText(size)}) ${reason}` },
  ]
  if (budget.read >= MAX_ATTACHMENTS_READ) return note(`not read: more than ${MAX_ATTACHMENTS_READ} attachments`)
  if (size > MAX_ATTACHMENT_BYTES || budget.bytes + size > MAX_ATTACHMENTS_TOTAL_BYTES) {
    return note('not read: too large')
  }
  budget.read++
  budget.bytes += size

  const dir = await mkdtemp(join(tmpdir(), 'lantern-attachment-'))
  try {
    const path = join(dir, `attachment${/\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? ''}`)
    await writeFile(path, attachment.content)
    const declared = attachment.contentType.toLowerCase()
    const sniffed = await detectMimeType(path, name, size, declared)
    const mimeType =
      sniffed !== UNKNOWN_MIME_TYPE && (supported.has(sniffed) || !supported.has(declared)) ? sniffed : declared
    const result = await read(mimeType, path, name, attachment.content)
    if (typeof result === 'string') return note(result)
    return [{ kind: 'heading', level: 2, text: label }, ...nestBlocks(result, 2, `a${index}-`)]
  } catch (error) {
    const failure = toIngestError('attachment', error)
    if (!failure.permanent) throw failure
    return note(`could not be read: ${failure.message}`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
