import { extname } from 'node:path'
import { ingestErrors } from '../errors.js'
import type { ParsedDocument, ParseInput, Parser } from '../model.js'
import { CFB } from './formats.js'
import { readSource } from './source.js'

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
/** FAT markers: end of a chain, and sectors that are free or hold the FAT itself. */
const END_OF_CHAIN = 0xfffffffe
/** Directory sectors read at most: a directory this long is not an encrypted Office file. */
const MAX_DIRECTORY_SECTORS = 4096
const DIRECTORY_ENTRY_BYTES = 128

/**
 * Names of the entries of a Compound File Binary container (MS-CFB): the header, the FAT (from the
 * header's DIFAT and the DIFAT chain) and the directory chain. Empty when the structure is not
 * readable; nothing but names is read.
 */
export function cfbEntryNames(bytes: Buffer): string[] {
  if (bytes.length < 512 || !bytes.subarray(0, 8).equals(SIGNATURE)) return []
  const sectorShift = bytes.readUInt16LE(30)
  if (sectorShift !== 9 && sectorShift !== 12) return []
  const sectorSize = 1 << sectorShift
  const sector = (n: number): Buffer | undefined => {
    const start = (n + 1) * sectorSize
    return start + sectorSize <= bytes.length ? bytes.subarray(start, start + sectorSize) : undefined
  }
  const fatSectors: number[] = []
  for (let i = 0; i < 109; i++) {
    const n = bytes.readUInt32LE(76 + i * 4)
    if (n < END_OF_CHAIN - 3) fatSectors.push(n)
  }
  let difat = bytes.readUInt32LE(68)
  for (let hops = 0; difat < END_OF_CHAIN - 3 && hops < 1024; hops++) {
    const block = sector(difat)
    if (!block) break
    for (let i = 0; i < sectorSize / 4 - 1; i++) {
      const n = block.readUInt32LE(i * 4)
      if (n < END_OF_CHAIN - 3) fatSectors.push(n)
    }
    difat = block.readUInt32LE(sectorSize - 4)
  }
  const next = (n: number): number => {
    const perSector = sectorSize / 4
    const fatSector = fatSectors[Math.floor(n / perSector)]
    const block = fatSector === undefined ? undefined : sector(fatSector)
    return block ? block.readUInt32LE((n % perSector) * 4) : END_OF_CHAIN
  }
  const names: string[] = []
  let current = bytes.readUInt32LE(48)
  for (let read = 0; current < END_OF_CHAIN - 3 && read < MAX_DIRECTORY_SECTORS; read++) {
    const block = sector(current)
    if (!block) break
    for (let offset = 0; offset + DIRECTORY_ENTRY_BYTES <= sectorSize; offset += DIRECTORY_ENTRY_BYTES) {
      const nameBytes = block.readUInt16LE(offset + 64)
      const type = block[offset + 66]
      if (type === 0 || nameBytes < 2 || nameBytes > 64) continue
      names.push(block.toString('utf16le', offset, offset + nameBytes - 2))
    }
    current = next(current)
  }
  return names
}

/**
 * Compound File Binary containers (legacy .doc/.xls/.ppt/.msg) are not read. One case gets its
 * own reason: a password-protected .docx/.xlsx/.pptx is stored as a CFB container holding
 * `EncryptionInfo` and `EncryptedPackage` (MS-OFFCRYPTO), which is "password-protected" rather
 * than an unsupported type.
 */
export const cfbParser: Parser = {
  mimeTypes: [CFB],
  parse: async (input: ParseInput): Promise<ParsedDocument> => {
    const names = new Set(cfbEntryNames(await readSource(input.path)))
    if (names.has('EncryptedPackage') && names.has('EncryptionInfo')) {
      const extension = extname(input.filename).slice(1).toUpperCase()
      const format = /^(DOCX|DOCM|XLSX|XLSM|XLSB|PPTX|PPTM)$/.test(extension) ? extension : 'Office document'
      throw ingestErrors.passwordProtected(format)
    }
    throw ingestErrors.unsupported(CFB)
  },
}
