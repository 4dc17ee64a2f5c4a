import { extname } from 'node:path'
import { bufferSource, CompoundFile } from '../detection/compound-file.js'
import { ingestErrors } from '../errors.js'
import type { ParsedDocument, ParseInput, Parser } from '../model.js'
import { CFB } from './formats.js'
import { readSource } from './source.js'

/**
 * Names of every entry of a Compound File Binary container, in directory order; empty when the
 * structure is not readable. Nothing but names is read.
 */
export async function cfbEntryNames(bytes: Buffer): Promise<string[]> {
  const file = await CompoundFile.open(bufferSource(bytes), bytes.length)
  return file ? [...file.entries.values()].map((entry) => entry.name) : []
}

/**
 * Compound File Binary containers other than Word 97–2003 documents and Outlook items (those are
 * sniffed as such at upload, see compound-file.ts, and read by their own parsers) are not read:
 * legacy .xls/.ppt and anything else. One case gets its own reason: a password-protected
 * .docx/.xlsx/.pptx is stored as a CFB container holding `EncryptionInfo` and `EncryptedPackage`
 * (MS-OFFCRYPTO), which is "password-protected" rather than an unsupported type.
 */
export const cfbParser: Parser = {
  mimeTypes: [CFB],
  parse: async (input: ParseInput): Promise<ParsedDocument> => {
    const names = new Set(await cfbEntryNames(await readSource(input.path)))
    if (names.has('EncryptedPackage') && names.has('EncryptionInfo')) {
      const extension = extname(input.filename).slice(1).toUpperCase()
      const format = /^(DOCX|DOCM|XLSX|XLSM|XLSB|PPTX|PPTM)$/.test(extension) ? extension : 'Office document'
      throw ingestErrors.passwordProtected(format)
    }
    throw ingestErrors.unsupported(CFB)
  },
}
