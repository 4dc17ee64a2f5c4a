import { open } from 'node:fs/promises'

export const XLSB_MIME_TYPE = 'application/vnd.ms-excel.sheet.binary.macroenabled.12'

/** Bytes read from the end of a ZIP: its central directory names every entry there. */
const TAIL_BYTES = 256 * 1024

/**
 * Whether a ZIP archive is an Excel binary workbook (.xlsb): its central directory names
 * `xl/workbook.bin`. file-type names the Open XML formats from `[Content_Types].xml`, but not this one.
 */
export async function isExcelBinary(path: string, size: number): Promise<boolean> {
  const handle = await open(path, 'r')
  try {
    const length = Math.min(size, TAIL_BYTES)
    const tail = Buffer.alloc(length)
    await handle.read(tail, 0, length, size - length)
    return tail.includes('xl/workbook.bin', 0, 'latin1')
  } finally {
    await handle.close()
  }
}
