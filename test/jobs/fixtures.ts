import { setTimeout as sleep } from 'node:timers/promises'
import PDFDocument from 'pdfkit'

/** A text PDF of `pages` pages (pdfkit), each saying which page it is; slow enough to watch being processed. */
export async function manyPagesPdf(pages: number, topic = 'leave'): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: false })
  const parts: Buffer[] = []
  doc.on('data', (part: Buffer) => parts.push(part))
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()))
  const sentence = `Employees accrue paid ${topic} monthly; unused days carry over to the next year. `
  for (let page = 1; page <= pages; page++) {
    doc.addPage()
    doc.fontSize(12).text(`Page ${page} of the ${topic} handbook. ${sentence.repeat(30)}`)
  }
  doc.end()
  await ended
  return Buffer.concat(parts)
}

/** Polls `probe` every 50 ms until it returns something other than undefined or false. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(50)
  }
}
