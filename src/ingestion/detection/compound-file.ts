import { open } from 'node:fs/promises'
import { extname } from 'node:path'
import iconv from 'iconv-lite'
import { codepageEncoding } from './text-decoding.js'

/**
 * A read-only view of a Compound File Binary container (MS-CFB), the format of Word 97–2003
 * `.doc`, Outlook `.msg`, Excel `.xls`, PowerPoint `.ppt` and password-protected OOXML files: the
 * header, the FAT (from the header's DIFAT and the DIFAT chain), the directory, and the start of a
 * stream. Reads only the sectors it needs, from a file or a buffer; a structure it cannot follow
 * gives no entries rather than an error (callers decide what an unreadable container means).
 */

export const CFB_MIME_TYPE = 'application/x-cfb'
export const DOC_MIME_TYPE = 'application/msword'
export const MSG_MIME_TYPE = 'application/vnd.ms-outlook'
export const XLS_MIME_TYPE = 'application/vnd.ms-excel'
export const PPT_MIME_TYPE = 'application/vnd.ms-powerpoint'

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
/** Sector numbers from here up are markers (free, end of chain, FAT, DIFAT), never a sector. */
const MAX_REGULAR_SECTOR = 0xfffffffa
/** Directory sectors read at most (32,768 entries of 4 KiB sectors): more is not a real document. */
const MAX_DIRECTORY_SECTORS = 4096
const DIRECTORY_ENTRY_BYTES = 128
const NO_STREAM = 0xffffffff

/** Directory entry types (MS-CFB 2.6.1). */
export const EntryType = { Storage: 1, Stream: 2, Root: 5 } as const
export type EntryType = (typeof EntryType)[keyof typeof EntryType]

export interface CfbEntry {
  /** Index in the directory (the root is 0). */
  readonly id: number
  readonly name: string
  readonly type: EntryType
  readonly left: number
  readonly right: number
  readonly child: number
  readonly start: number
  readonly size: number
}

/** Random access to the container's bytes: fewer than `length` bytes past the end. */
export type ByteSource = (offset: number, length: number) => Promise<Buffer>

export function bufferSource(bytes: Buffer): ByteSource {
  return async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length))
}

export class CompoundFile {
  private readonly fatCache = new Map<number, Buffer>()

  private constructor(
    private readonly read: ByteSource,
    private readonly sectorSize: number,
    private readonly sectorCount: number,
    private readonly fatSectors: readonly number[],
    private readonly miniCutoff: number,
    private readonly firstMiniFatSector: number,
    /** Every entry of the directory, by id (unused slots are absent). */
    readonly entries: ReadonlyMap<number, CfbEntry>,
  ) {}

  /** The container in `source` (`size` bytes), or null when it is not a readable CFB. */
  static async open(source: ByteSource, size: number): Promise<CompoundFile | null> {
    const header = await source(0, 512)
    if (header.length < 512 || !header.subarray(0, 8).equals(SIGNATURE)) return null
    const sectorShift = header.readUInt16LE(30)
    if (sectorShift !== 9 && sectorShift !== 12) return null
    const sectorSize = 1 << sectorShift
    const sectorCount = Math.max(0, Math.floor((size - sectorSize) / sectorSize))
    const readSector = async (n: number): Promise<Buffer | undefined> => {
      if (n > MAX_REGULAR_SECTOR || n >= sectorCount) return undefined
      const block = await source((n + 1) * sectorSize, sectorSize)
      return block.length === sectorSize ? block : undefined
    }
    const fatSectors: number[] = []
    for (let i = 0; i < 109; i++) {
      const n = header.readUInt32LE(76 + i * 4)
      if (n <= MAX_REGULAR_SECTOR) fatSectors.push(n)
    }
    let difat = header.readUInt32LE(68)
    for (let hops = 0; difat <= MAX_REGULAR_SECTOR && hops < sectorCount; hops++) {
      const block = await readSector(difat)
      if (!block) break
      for (let i = 0; i < sectorSize / 4 - 1; i++) {
        const n = block.readUInt32LE(i * 4)
        if (n <= MAX_REGULAR_SECTOR) fatSectors.push(n)
      }
      difat = block.readUInt32LE(sectorSize - 4)
    }
    const file = new CompoundFile(
      source,
      sectorSize,
      sectorCount,
      fatSectors,
      header.readUInt32LE(56) || 4096,
      header.readUInt32LE(60),
      new Map(),
    )
    await file.readDirectory(header.readUInt32LE(48))
    return file
  }

  /** The entries directly under the root storage (its red-black tree), in directory order. */
  rootEntries(): CfbEntry[] {
    const root = this.entries.get(0)
    if (!root || root.type !== EntryType.Root) return []
    const found = new Map<number, CfbEntry>()
    const pending = [root.child]
    while (pending.length > 0 && found.size <= this.entries.size) {
      const id = pending.pop() as number
      const entry = this.entries.get(id)
      if (!entry || found.has(id)) continue
      found.set(id, entry)
      pending.push(entry.left, entry.right)
    }
    return [...found.values()].sort((a, b) => a.id - b.id)
  }

  /** The root entry named `name` (names compare case-insensitively, as in MS-CFB). */
  rootEntry(name: string): CfbEntry | undefined {
    const wanted = name.toUpperCase()
    return this.rootEntries().find((entry) => entry.name.toUpperCase() === wanted)
  }

  /** The first `maxBytes` bytes of a stream (fewer when the stream or its chain is shorter). */
  async readStream(entry: CfbEntry, maxBytes: number): Promise<Buffer> {
    const wanted = Math.min(entry.size, maxBytes)
    if (wanted <= 0 || entry.type !== EntryType.Stream) return Buffer.alloc(0)
    if (entry.size < this.miniCutoff) return this.readMiniStream(entry.start, wanted)
    return this.readChain(entry.start, wanted)
  }

  private async readDirectory(first: number): Promise<void> {
    const entries = this.entries as Map<number, CfbEntry>
    let current = first
    for (let index = 0; current <= MAX_REGULAR_SECTOR && index < MAX_DIRECTORY_SECTORS; index++) {
      const block = await this.sector(current)
      if (!block) break
      for (let offset = 0; offset + DIRECTORY_ENTRY_BYTES <= this.sectorSize; offset += DIRECTORY_ENTRY_BYTES) {
        const nameBytes = block.readUInt16LE(offset + 64)
        const type = block[offset + 66]
        if (type !== EntryType.Storage && type !== EntryType.Stream && type !== EntryType.Root) continue
        if (nameBytes < 2 || nameBytes > 64) continue
        const id = (index * this.sectorSize + offset) / DIRECTORY_ENTRY_BYTES
        entries.set(id, {
          id,
          name: block.toString('utf16le', offset, offset + nameBytes - 2),
          type,
          left: block.readUInt32LE(offset + 68),
          right: block.readUInt32LE(offset + 72),
          child: block.readUInt32LE(offset + 76),
          start: block.readUInt32LE(offset + 116),
          // Version 3 files may leave garbage in the high half; no stream here is over 4 GiB.
          size: block.readUInt32LE(offset + 120),
        })
      }
      current = await this.next(current)
    }
  }

  private async sector(n: number): Promise<Buffer | undefined> {
    if (n > MAX_REGULAR_SECTOR || n >= this.sectorCount) return undefined
    const block = await this.read((n + 1) * this.sectorSize, this.sectorSize)
    return block.length === this.sectorSize ? block : undefined
  }

  /** The sector after `n` in its chain (from the FAT), or a marker. */
  private async next(n: number): Promise<number> {
    const perSector = this.sectorSize / 4
    const index = Math.floor(n / perSector)
    let block = this.fatCache.get(index)
    if (!block) {
      const fatSector = this.fatSectors[index]
      block = fatSector === undefined ? undefined : await this.sector(fatSector)
      if (!block) return NO_STREAM
      this.fatCache.set(index, block)
    }
    return block.readUInt32LE((n % perSector) * 4)
  }

  private async readChain(start: number, wanted: number): Promise<Buffer> {
    const parts: Buffer[] = []
    let got = 0
    let current = start
    for (let hops = 0; got < wanted && current <= MAX_REGULAR_SECTOR && hops < this.sectorCount; hops++) {
      const block = await this.sector(current)
      if (!block) break
      parts.push(block)
      got += block.length
      current = await this.next(current)
    }
    return Buffer.concat(parts).subarray(0, wanted)
  }

  /** A small stream lives in 64-byte sectors of the mini stream (the root's chain), chained by the mini FAT. */
  private async readMiniStream(start: number, wanted: number): Promise<Buffer> {
    const root = this.entries.get(0)
    if (!root) return Buffer.alloc(0)
    const miniSize = 64
    const miniFat = await this.readChain(this.firstMiniFatSector, Number.MAX_SAFE_INTEGER)
    const maxMini = Math.floor(root.size / miniSize)
    const sectors: number[] = []
    let current = start
    while (sectors.length * miniSize < wanted && current < maxMini && sectors.length <= maxMini) {
      sectors.push(current)
      const at = current * 4
      current = at + 4 <= miniFat.length ? miniFat.readUInt32LE(at) : NO_STREAM
    }
    if (sectors.length === 0) return Buffer.alloc(0)
    const last = Math.max(...sectors)
    const stream = await this.readChain(root.start, (last + 1) * miniSize)
    const out = Buffer.concat(sectors.map((n) => stream.subarray(n * miniSize, (n + 1) * miniSize)))
    return out.subarray(0, wanted)
  }
}

const VT_I2 = 0x02
const VT_LPSTR = 0x1e
const VT_LPWSTR = 0x1f
const PID_CODEPAGE = 1
const PIDSI_TITLE = 2

/**
 * The title the document's properties give (PIDSI_TITLE of the `\x05SummaryInformation` property
 * set, MS-OLEPS), in the set's code page; undefined when there is none or it cannot be read.
 */
export async function summaryTitle(file: CompoundFile): Promise<string | undefined> {
  const entry = file.rootEntry('\u0005SummaryInformation')
  if (!entry) return undefined
  const bytes = await file.readStream(entry, 256 * 1024)
  try {
    if (bytes.length < 48 || bytes.readUInt16LE(0) !== 0xfffe) return undefined
    const section = bytes.readUInt32LE(44)
    const count = Math.min(bytes.readUInt32LE(section + 4), 1000)
    const offsets = new Map<number, number>()
    for (let i = 0; i < count; i++) {
      offsets.set(bytes.readUInt32LE(section + 8 + i * 8), section + bytes.readUInt32LE(section + 12 + i * 8))
    }
    const codepageAt = offsets.get(PID_CODEPAGE)
    const codepage =
      codepageAt !== undefined && bytes.readUInt16LE(codepageAt) === VT_I2 ? bytes.readUInt16LE(codepageAt + 4) : 1252
    const at = offsets.get(PIDSI_TITLE)
    if (at === undefined) return undefined
    const type = bytes.readUInt16LE(at)
    const length = bytes.readUInt32LE(at + 4)
    let title: string
    if (type === VT_LPSTR) {
      const raw = bytes.subarray(at + 8, at + 8 + Math.min(length, 4096))
      title = iconv.decode(raw, codepageEncoding(codepage) ?? 'windows-1252')
    } else if (type === VT_LPWSTR) {
      title = bytes.toString('utf16le', at + 8, Math.min(bytes.length, at + 8 + Math.min(length, 2048) * 2))
    } else return undefined
    return (
      title
        .replace(/\0[\s\S]*$/, '')
        .replace(/\s+/g, ' ')
        .trim() || undefined
    )
  } catch {
    // A property set that points past its stream.
    return undefined
  }
}

/** Opens the container stored at `path` and hands it to `use`; null when it is not a readable CFB. */
export async function withCompoundFile<T>(path: string, use: (file: CompoundFile | null) => Promise<T>): Promise<T> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    const source: ByteSource = async (offset, length) => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)))
      if (buffer.length === 0) return buffer
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset)
      return buffer.subarray(0, bytesRead)
    }
    return await use(await CompoundFile.open(source, size))
  } finally {
    await handle.close()
  }
}

/** Root entries that mark an Outlook item (MS-OXMSG): property streams and the property list. */
const isOutlookEntry = (name: string): boolean =>
  name.startsWith('__substg1.0_') || name === '__properties_version1.0' || name === '__nameid_version1.0'

/** What a name's extension says a CFB container is, consulted only when the content does not decide. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.doc': DOC_MIME_TYPE,
  '.dot': DOC_MIME_TYPE,
  '.msg': MSG_MIME_TYPE,
  '.oft': MSG_MIME_TYPE,
  '.xls': XLS_MIME_TYPE,
  '.xlt': XLS_MIME_TYPE,
  '.ppt': PPT_MIME_TYPE,
  '.pot': PPT_MIME_TYPE,
  '.pps': PPT_MIME_TYPE,
}

/**
 * The MIME type of a CFB container from its root entries: a `WordDocument` stream is a Word 97–2003
 * document, `__substg1.0_…`/`__properties_version1.0` an Outlook item, `Workbook` (or BIFF5's
 * `Book`) an Excel 97–2003 workbook, `PowerPoint Document` a PowerPoint 97–2003 deck. When the
 * entries say several or cannot be read at all, the file name's extension decides among them;
 * otherwise (an encrypted OOXML package, anything else) it stays `application/x-cfb`.
 */
export function compoundFileTypeOf(rootNames: readonly string[] | null, fileName: string): string {
  const byExtension = BY_EXTENSION[extname(fileName).toLowerCase()]
  if (rootNames === null || rootNames.length === 0) return byExtension ?? CFB_MIME_TYPE
  const kinds = [
    rootNames.includes('WordDocument') ? DOC_MIME_TYPE : null,
    rootNames.some(isOutlookEntry) ? MSG_MIME_TYPE : null,
    rootNames.includes('Workbook') || rootNames.includes('Book') ? XLS_MIME_TYPE : null,
    rootNames.includes('PowerPoint Document') ? PPT_MIME_TYPE : null,
  ].filter((kind): kind is string => kind !== null)
  if (kinds.length > 1) return byExtension && kinds.includes(byExtension) ? byExtension : CFB_MIME_TYPE
  return kinds[0] ?? CFB_MIME_TYPE
}

/** {@link compoundFileTypeOf} for the container stored at `path`. */
export async function compoundFileType(path: string, fileName: string): Promise<string> {
  const names = await withCompoundFile(path, async (file) => file?.rootEntries().map((entry) => entry.name) ?? null)
  return compoundFileTypeOf(names, fileName)
}
