import { createWriteStream } from 'node:fs'
import PDFDocument from 'pdfkit'

const WORDS =
  'revenue operating income net cash provided by activities fiscal year quarter segment assets liabilities equity ' +
  'shareholders dividends acquisition goodwill impairment depreciation amortization inventory receivable payable ' +
  'deferred tax expense interest margin guidance outlook customers products services international domestic growth'

/**
 * Writes a text PDF of `pages` pages (a heading, about 350 words of filing-like prose and a small
 * table on each) to `path`: a document larger than any of the real filings, to see how memory
 * grows with the page count. Deterministic.
 */
export function writeLargePdf(path: string, pages: number): Promise<void> {
  const words = WORDS.split(' ')
  let seed = 7
  const word = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return words[seed % words.length]
  }
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false, compress: true })
    const out = createWriteStream(path)
    out.on('finish', () => resolve())
    out.on('error', reject)
    doc.pipe(out)
    for (let page = 1; page <= pages; page++) {
      doc.addPage({ size: 'LETTER', margin: 54 })
      doc.fontSize(14).text(`Item ${page}. Management discussion, part ${page}`)
      doc.moveDown(0.5).fontSize(10)
      const prose = Array.from({ length: 350 }, word).join(' ')
      doc.text(`${prose}.`, { align: 'left' })
      doc.moveDown(0.5)
      for (let row = 0; row < 6; row++) {
        const figures = [2021, 2022, 2023].map((year) => `${year}: ${((page * 37 + row * 11 + year) % 9973) / 10}`)
        doc.text(`${word()} ${word()}    ${figures.join('    ')}`)
      }
    }
    doc.end()
  })
}
