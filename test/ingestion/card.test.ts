import { describe, expect, it } from 'vitest'
import { legalNamesIn } from '../../src/ingestion/card/legal-names.js'
import { type CardContext, readCard } from '../../src/ingestion/card/read-card.js'
import { cardSentence } from '../../src/ingestion/card/sentence.js'
import { meaningfulTitle } from '../../src/ingestion/card/title.js'
import type { ParsedDocument } from '../../src/ingestion/model.js'
import { htmlParser } from '../../src/ingestion/parsers/html.js'
import { markdownParser } from '../../src/ingestion/parsers/markdown.js'
import { pdfParser } from '../../src/ingestion/parsers/pdf.js'
import { mutoolRuns } from '../../src/ingestion/parsers/pdf-mutool.js'
import { textParser } from '../../src/ingestion/parsers/text.js'
import { describeDocument } from '../../src/ingestion/pipeline/describe.js'
import { processDocument } from '../../src/ingestion/pipeline/process-document.js'
import type { DocumentCard } from '../../src/storage/ports/document-card.js'
import { pdfOf } from '../support/pdf.js'
import { inputFor, LIMITS, tempFiles } from './text-formats-support.js'

const file = tempFiles()
const mutool = mutoolRuns() ? 'mutool' : null

type Line = string | { readonly text: string; readonly size: number }

/** A PDF whose pages hold these lines (a size makes a heading), with an optional metadata title. */
function linesPdf(pages: readonly (readonly Line[])[], title?: string): Promise<Buffer> {
  return pdfOf(
    (doc) => {
      for (const lines of pages) {
        doc.addPage()
        for (const line of lines) {
          const { text, size } = typeof line === 'string' ? { text: line, size: 10 } : line
          doc.fontSize(size).text(text)
          doc.moveDown(0.5)
        }
      }
    },
    title ? { info: { Title: title } } : {},
  )
}

async function parsePdf(name: string, bytes: Buffer): Promise<ParsedDocument> {
  return pdfParser.parse(inputFor(await file(name, bytes), 'application/pdf', { mutool }))
}

async function parseText(name: string, text: string, mimeType: string): Promise<ParsedDocument> {
  const parser = mimeType === 'text/html' ? htmlParser : mimeType === 'text/markdown' ? markdownParser : textParser
  return parser.parse(inputFor(await file(name, text), mimeType))
}

function context(filename: string, folder = '/', language = 'en'): CardContext {
  return { filename, objectName: `${folder}${filename}`, language, mimeType: 'application/pdf' }
}

const FILLER =
  'The registrant reports on its operations, its liquidity and its capital resources in the sections that follow, ' +
  'with the condensed consolidated financial statements and the notes that explain them.'

/** A 10-Q in the shape of the SEC's form, for a made-up company. */
function quarterlyReport(): Promise<Buffer> {
  return linesPdf([
    [
      { text: 'UNITED STATES SECURITIES AND EXCHANGE COMMISSION', size: 14 },
      'Washington, D.C. 20549',
      { text: 'FORM 10-Q', size: 14 },
      '☒ QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
      'For the quarterly period ended July 2, 2023',
      '☐ TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
      'Commission File Number 1-3619',
      { text: 'NORTHWIND TRADERS INC.', size: 14 },
      '(Exact name of registrant as specified in its charter)',
      'Title of each class Trading Symbol(s) Name of each exchange on which registered',
      'Common Stock, $0.05 par value NWT New York Stock Exchange',
      'Indicate by check mark whether the registrant (1) has filed all reports required to be filed by Section 13.',
    ],
    [
      { text: 'Part I. Financial Information', size: 14 },
      'Unless the context requires otherwise, references to “Northwind,” “the Company,” “we,” “us” or “our” in this ' +
        'Form 10-Q refer to Northwind Traders Inc. and its subsidiaries.',
      'Results are for the three and six months ended July 2, 2023 and July 3, 2022.',
      FILLER,
    ],
    [
      { text: 'Northwind Traders Inc. and Subsidiaries', size: 12 },
      'Condensed Consolidated Statements of Income',
      FILLER,
    ],
  ])
}

describe('readCard', () => {
  it('reads a 10-Q cover: registrant, short name, ticker, the quarter with its fiscal number, kind and title', async () => {
    const parsed = await parsePdf('filing-017.pdf', await quarterlyReport())
    const card = readCard(parsed, context('filing-017.pdf', '/filings/'))
    expect(card.kind).toBe('quarterly report')
    expect(card.subjects).toEqual(['Northwind Traders Inc.', 'Northwind', 'NWT'])
    expect(card.period).toMatchObject({ start: '2023-04-03', end: '2023-07-02', fiscalYear: 2023, fiscalQuarter: 2 })
    expect(card.period?.label).toBe('quarter ended July 2, 2023 (Q2 of fiscal 2023)')
    expect(card.title).toBe('FORM 10-Q')
    expect(cardSentence(card, 'en')).toBe(
      'Quarterly report of Northwind Traders Inc. (NWT) for the quarter ended July 2, 2023 (Q2 of fiscal 2023).',
    )
  })

  it('gives the same card whatever the file is called, and ignores a metadata title that is a file id', async () => {
    const bytes = await quarterlyReport()
    const opaque = readCard(await parsePdf('filing-017.pdf', bytes), context('filing-017.pdf', '/filings/'))
    const named = readCard(await parsePdf('NORTHWIND_2023Q2_10Q.pdf', bytes), context('NORTHWIND_2023Q2_10Q.pdf'))
    expect(named).toEqual(opaque)
    const withId = await parsePdf(
      'id.pdf',
      await linesPdf([['Some text of a page that is long enough.']], '0000078003-23-000088'),
    )
    expect(readCard(withId, context('id.pdf')).title).toBeNull()
  })

  it("names a retailer's 52-week year as the document does (`fiscal 2022` ended in January 2023)", async () => {
    const parsed = await parsePdf(
      'annual.pdf',
      await linesPdf([
        [
          { text: 'FORM 10-K', size: 14 },
          'ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
          'For the fiscal year ended January 28, 2023',
          { text: 'Tailspin Outfitters, Inc.', size: 14 },
          '(Exact name of registrant as specified in its charter)',
        ],
        [
          'In fiscal 2022 sales rose; fiscal 2022 included 52 weeks. We expect fiscal 2023 to be harder.',
          'Fiscal 2022 compared with fiscal 2021: comparable sales fell.',
        ],
      ]),
    )
    const card = readCard(parsed, context('annual.pdf'))
    expect(card.kind).toBe('annual report')
    expect(card.subjects[0]).toBe('Tailspin Outfitters, Inc.')
    expect(card.period).toMatchObject({ start: '2022-01-30', end: '2023-01-28', fiscalYear: 2022 })
    expect(card.period?.label).toBe('fiscal year ended January 28, 2023 (fiscal 2022)')
  })

  it('takes the current year of a results release whose table gives the prior year first', async () => {
    const parsed = await parseText(
      'release.txt',
      [
        'Fabrikam reports fiscal 2023 results',
        'Key Financials',
        'Net sales | Twelve Months Ended June 30, 2022 $ million | Twelve Months Ended June 30, 2023 $ million',
        'Fabrikam plc (NYSE: FAB) today reported results for the twelve months ended June 30, 2023.',
      ].join('\n'),
      'text/plain',
    )
    expect(readCard(parsed, context('release.txt')).period).toMatchObject({ start: '2022-07-01', end: '2023-06-30' })
  })

  it("reads a 10-K's period from its first pages when the cover's `fiscal year ended` date is missing", async () => {
    const cover = [
      { text: 'FORM 10-K', size: 14 },
      'ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934 FOR THE FISCAL YEAR ENDED',
      { text: 'Fabrikam Holdings, Inc.', size: 14 },
      '(Exact name of registrant as specified in its charter)',
      'The aggregate market value of the voting stock held by non-affiliates as of June 30, 2020 was $4.1 billion.',
      'As of February 19, 2021, there were 181,000,000 shares of common stock outstanding.',
    ]
    const restated = await parsePdf(
      'restated.pdf',
      await linesPdf([
        cover,
        ['This Annual Report on Form 10-K for the fiscal year ended December 31, 2020 describes our business.', FILLER],
      ]),
    )
    expect(readCard(restated, context('restated.pdf')).period).toMatchObject({
      start: '2020-01-01',
      end: '2020-12-31',
      fiscalYear: 2020,
    })

    // No sentence restates it: the date its first pages give most often ends its fiscal year, not
    // the cover's market-value date.
    const usual = await parsePdf(
      'usual.pdf',
      await linesPdf([
        cover,
        [
          'As of December 31, 2020, we operated 31 properties.',
          'Our cash stood at $2.1 billion as of December 31, 2020.',
          'At December 31, 2020, we had 68,000 employees.',
          FILLER,
        ],
      ]),
    )
    const card = readCard(usual, context('usual.pdf'))
    expect(card.period).toMatchObject({ start: '2020-01-01', end: '2020-12-31', fiscalYear: 2020 })
    expect(card.period?.label).toBe('fiscal year ended December 31, 2020 (fiscal 2020)')
  })

  it('reads an earnings release: the headline names the company, the dateline its ticker and quarter', async () => {
    const parsed = await parseText(
      'release.md',
      [
        '# Fabrikam, Inc. Reports Fourth Quarter and Full Year 2022 Results',
        '',
        'SEATTLE, February 8, 2023 – Fabrikam, Inc. (NYSE: FAB) (“Fabrikam” or the “Company”) today reported ' +
          'financial results for the quarter and year ended December 31, 2022.',
        '',
        'Fabrikam grew revenue by 12 percent in the fourth quarter, and Fabrikam expects growth to continue.',
      ].join('\n'),
      'text/markdown',
    )
    const card = readCard(parsed, context('release.md'))
    expect(card.kind).toBe('earnings release')
    expect(card.subjects).toEqual(['Fabrikam, Inc.', 'Fabrikam', 'FAB'])
    expect(card.period).toMatchObject({ start: '2022-10-01', end: '2022-12-31', fiscalYear: 2022, fiscalQuarter: 4 })
    expect(card.title).toBe('Fabrikam, Inc. Reports Fourth Quarter and Full Year 2022 Results')
  })

  it('reads a results news release of a company whose name has no legal form', async () => {
    const parsed = await parseText(
      'news.txt',
      [
        'News Release',
        '',
        'Investor contacts: investor.relations@example.com',
        '',
        'Media contacts: media@example.com',
        '',
        'Smith & Jones Reports 2023 Second-Quarter Results',
        '',
        'NEW BRUNSWICK, July 20, 2023 – Smith & Jones (NYSE: SJX) today announced results for second-quarter 2023. ' +
          'Smith & Jones raised its guidance for the year.',
      ].join('\n'),
      'text/plain',
    )
    const card = readCard(parsed, context('news.txt'))
    expect(card.kind).toBe('earnings release')
    expect(card.subjects).toEqual(['Smith & Jones', 'SJX'])
    expect(card.period).toMatchObject({ fiscalYear: 2023, fiscalQuarter: 2 })
  })

  it('reads an 8-K: a current report dated the day of its report', async () => {
    const parsed = await parseText(
      'current.txt',
      [
        'UNITED STATES SECURITIES AND EXCHANGE COMMISSION',
        '',
        'FORM 8-K',
        '',
        'CURRENT REPORT Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934',
        '',
        'Date of Report (Date of earliest event reported): May 20, 2022 (May 18, 2022)',
        '',
        'Litware Holdings Corp.',
        '(Exact name of registrant as specified in its charter)',
      ].join('\n'),
      'text/plain',
    )
    const card = readCard(parsed, context('current.txt'))
    expect(card.kind).toBe('current report')
    expect(card.subjects[0]).toBe('Litware Holdings Corp.')
    expect(card.period).toMatchObject({ start: '2022-05-20', end: '2022-05-20', label: 'May 20, 2022' })
    expect(cardSentence(card, 'en')).toBe('Current report of Litware Holdings Corp. dated May 20, 2022.')
  })

  it('reads a letter: its sender, its date and its kind', async () => {
    const parsed = await parseText(
      'letter.txt',
      [
        'Acme Widgets Ltd',
        '12 High Street, London',
        '',
        '5 March 2024',
        '',
        'Dear Ms Smith,',
        '',
        'Thank you for your order of 14 February 2024. We will deliver the widgets next week, as agreed.',
        '',
        'Yours sincerely,',
        '',
        'John Brown, Acme Widgets Ltd',
      ].join('\n'),
      'text/plain',
    )
    const card = readCard(parsed, context('letter.txt'))
    expect(card.kind).toBe('letter')
    expect(card.subjects).toEqual(['Acme Widgets Ltd'])
    expect(card.period).toMatchObject({ start: '2024-03-05', end: '2024-03-05' })
  })

  it('reads a letter to whom it may concern, and no period from a copyright line', async () => {
    const letter = await parseText(
      'memo.txt',
      'May 5, 2023\n\nTo Whom it May Concern:\n\nThe blankets were delivered on January 23, 2023.\n\nBest Regards,\n\nMallori',
      'text/plain',
    )
    expect(readCard(letter, context('memo.txt'))).toMatchObject({ kind: 'letter', period: { start: '2023-05-05' } })
    const notice = await parseText(
      'notice.txt',
      'Declaration, first article\n\n© 1996 – 2009 The Office of the High Commissioner\n\nAll human beings are born free.',
      'text/plain',
    )
    expect(readCard(notice, context('notice.txt')).period).toBeNull()
  })

  it('reads minutes: the meeting date, and no organisation when none is named', async () => {
    const parsed = await parseText(
      'minutes.md',
      [
        '# Minutes of the Board Meeting',
        '',
        'Held on 3 May 2023 at the head office.',
        '',
        'Present: A. Martin (chair), B. Chen, C. Okafor',
        '',
        'The meeting was called to order at 10:00. The budget for 2024 was approved. Next meeting: 7 June 2023.',
      ].join('\n'),
      'text/markdown',
    )
    const card = readCard(parsed, context('minutes.md'))
    expect(card.kind).toBe('minutes')
    expect(card.subjects).toEqual([])
    expect(card.period).toMatchObject({ start: '2023-05-03', end: '2023-05-03' })
    expect(card.title).toBe('Minutes of the Board Meeting')
  })

  it('reads an invoice: the invoice date, not the due date, and the seller', async () => {
    const parsed = await parseText(
      'invoice.html',
      `<html><head><title>Invoice 2024-0042</title></head><body>
        <h1>Litware SARL</h1><h2>INVOICE</h2>
        <p>Invoice number: 2024-0042</p><p>Due date: 2024-03-31</p><p>Invoice date: 2024-03-01</p>
        <p>Bill to: Northwind Traders Inc., 1 Harbour Road</p>
        <table><tr><th>Item</th><th>Amount</th></tr><tr><td>Consulting</td><td>1,200.00</td></tr></table>
        <p>Amount due: 1,200.00 EUR. Litware SARL, 4 rue du Port, Nantes.</p></body></html>`,
      'text/html',
    )
    const card = readCard(parsed, context('invoice.html'))
    expect(card.kind).toBe('invoice')
    expect(card.subjects[0]).toBe('Litware SARL')
    expect(card.period).toMatchObject({ start: '2024-03-01', end: '2024-03-01' })
    expect(card.title).toBe('Invoice 2024-0042')
  })

  it('names no organisation for a paper that mentions some in passing', async () => {
    const parsed = await parseText(
      'paper.md',
      [
        '# Sparse Retrieval for Long Documents',
        '',
        'Jane Doe, John Roe — Department of Computer Science, University of Somewhere',
        '',
        '## Abstract',
        '',
        'We study sparse retrieval over long documents. Unlike earlier systems by Contoso Ltd and Fabrikam Inc., ' +
          'our method needs no training data (Smith et al., 2021).',
        '',
        '## 1 Introduction',
        '',
        'Long documents are hard to search.',
      ].join('\n'),
      'text/markdown',
    )
    const card = readCard(parsed, context('paper.md'))
    expect(card.kind).toBe('research paper')
    expect(card.subjects).toEqual([])
    expect(card.title).toBe('Sparse Retrieval for Long Documents')
  })

  it('reads a French annual report and labels its period in French', async () => {
    const parsed = await parseText(
      'rapport.md',
      [
        '# Rapport financier annuel 2022',
        '',
        'Exemple Industries SA',
        '',
        'Exercice clos le 31 décembre 2022. Exemple Industries SA publie ses comptes consolidés. ' +
          'Exemple Industries SA est cotée à Paris.',
      ].join('\n'),
      'text/markdown',
    )
    const card = readCard(parsed, { ...context('rapport.md'), language: 'fr' })
    expect(card.kind).toBe('annual report')
    expect(card.subjects[0]).toBe('Exemple Industries SA')
    expect(card.period).toMatchObject({ start: '2022-01-01', end: '2022-12-31', fiscalYear: 2022 })
    expect(card.period?.label).toBe('exercice clos le 31 décembre 2022 (exercice 2022)')
    expect(cardSentence(card, 'fr')).toBe(
      'Rapport annuel de Exemple Industries SA, exercice clos le 31 décembre 2022 (exercice 2022).',
    )
  })

  it("takes a period from the file's name only when the text has none", async () => {
    const text = 'Notes from the planning session. We agreed on the roadmap and the hiring plan.'
    const parsed = await parseText('notes.txt', text, 'text/plain')
    expect(readCard(parsed, context('planning-2023-05-03.txt')).period).toMatchObject({ start: '2023-05-03' })
    expect(readCard(parsed, context('notes.txt')).period).toBeNull()
    const dated = await parseText('dated.txt', `Date: 1 June 2023\n\n${text}`, 'text/plain')
    expect(readCard(dated, context('planning-2023-05-03.txt')).period).toMatchObject({ start: '2023-06-01' })
  })

  it.each([
    [
      'a quarterly report with statements for three months only is a first quarter',
      'FORM 10-Q\n\nFor the quarterly period ended March 31, 2023\n\nStatements for the three months ended March 31, 2023.',
      { fiscalQuarter: 1, fiscalYear: 2023 },
    ],
    [
      'a quarter that ends with the year is a fourth quarter',
      'For the quarterly period ended December 31, 2022\n\nStatements for the year ended December 31, 2022.',
      { fiscalQuarter: 4, fiscalYear: 2022 },
    ],
    [
      'a quarter of any other report says no fiscal number without a sign',
      'For the quarterly period ended March 31, 2023\n\nStatements for the three months ended March 31, 2023.',
      { start: '2023-01-01', label: 'quarter ended March 31, 2023' },
    ],
  ])('%s', async (_, text, period) => {
    const parsed = await parseText('q.txt', text, 'text/plain')
    expect(readCard(parsed, context('q.txt')).period).toMatchObject(period)
  })

  it("does not take a table's dates for the document's own", () => {
    const sheet: ParsedDocument = {
      blocks: [
        {
          kind: 'table',
          sheet: 'Orders',
          header: ['Order', 'Date'],
          rows: [{ rowNumber: 2, cells: ['A-1', 'September 20, 2018'] }],
        },
      ],
      pageCount: 1,
      documentType: 'text',
    }
    expect(readCard(sheet, context('orders.xlsx')).period).toBeNull()
  })

  it('says nothing when the document says nothing', async () => {
    const parsed = await parseText(
      'plain.txt',
      'some words without names, dates or kinds of any sort here',
      'text/plain',
    )
    const card: DocumentCard = readCard(parsed, context('plain.txt'))
    expect(card).toEqual({ title: null, subjects: [], period: null, kind: null })
    expect(cardSentence(card, 'en')).toBeNull()
  })
})

describe('legalNamesIn', () => {
  it.each([
    ['PFIZER INC.', ['PFIZER INC.']],
    ['American Water Works Company, Inc. and its subsidiaries', ['American Water Works Company, Inc.']],
    ['The Boeing Company, together with its subsidiaries', ['The Boeing Company']],
    ['Siemens AG and Acme GmbH', ['Siemens AG', 'Acme GmbH']],
    ['results for 2023 and Fabrikam Inc. said', ['Fabrikam Inc.']],
    ['3M Company', ['3M Company']],
    ['The Company and the Group', []],
  ])('reads %j', (text, names) => {
    expect(legalNamesIn(text).map((name) => name.surface)).toEqual(names)
  })
})

describe('meaningfulTitle', () => {
  it.each([
    ['0000078003-23-000088', null],
    ['Document', null],
    ['Untitled spreadsheet', null],
    ['Microsoft Word - minutes.docx', 'minutes'],
    ['report_2023_q2_final', null],
    ['filing-017', null],
    ['ADBE 10-K FY22', 'ADBE 10-K FY22'],
    ['临床试验 知情同意书 模板', '临床试验 知情同意书 模板'],
  ])('reads %j as %j', (title, expected) => {
    expect(meaningfulTitle(title, 'filing-017.pdf')).toBe(expected)
  })
})

describe('the card in processing and in the description', () => {
  it('returns the card with the processing summary and opens the description with its sentence', async () => {
    const path = await file('filing-018.pdf', await quarterlyReport())
    const processed = await processDocument(
      {
        companyId: 'c',
        documentId: 'd',
        objectName: '/filings/filing-018.pdf',
        filename: 'filing-018.pdf',
        mimeType: 'application/pdf',
        filePath: path,
        options: { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0.1 },
        limits: LIMITS,
        ocrLanguages: ['eng'],
        mutool,
        soffice: null,
        autoDescription: true,
        chunkTokens: 200,
        chunkOverlapTokens: 20,
      },
      () => {},
    )
    expect(processed.card.kind).toBe('quarterly report')
    expect(processed.card.subjects[0]).toBe('Northwind Traders Inc.')
    expect(
      processed.description?.startsWith('Quarterly report of Northwind Traders Inc. (NWT) for the quarter ended'),
    ).toBe(true)
    expect(processed.description?.length).toBeLessThanOrEqual(500)
  })

  it('keeps the description as it was when there is no card', async () => {
    const parsed = await parseText(
      'leave.md',
      '# Leave Policy\n\nThis policy explains how employees request leave.',
      'text/markdown',
    )
    expect(describeDocument(parsed, 'en')).toMatch(/^Leave Policy\. This policy explains/)
  })
})
