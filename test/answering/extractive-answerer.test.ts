import { describe, expect, it } from 'vitest'
import { ExtractiveAnswerer } from '../../src/answering/extractive-answerer.js'
import type { AnswerInput } from '../../src/answering/types.js'
import { type DocumentSpan, EMPTY_SPAN } from '../../src/retrieval/context/span.js'
import type { RetrievedChunk } from '../../src/retrieval/types.js'
import type { DocumentCard } from '../../src/storage/ports/document-card.js'
import { questionNames } from '../../src/text/names.js'

function chunk(
  documentId: string,
  text: string,
  options: { card?: DocumentCard; table?: boolean; usageScore?: number } = {},
): RetrievedChunk {
  return {
    chunkId: `${documentId}-${text.length}`,
    documentId,
    objectName: `/filings/${documentId}.pdf`,
    filename: `${documentId}.pdf`,
    documentType: 'text',
    description: '',
    card: options.card ?? null,
    idx: 0,
    text,
    pageNumber: '3',
    rowIdx: null,
    metadata: { category: options.table ? 'table' : 'text' },
    language: 'en',
    score: 1,
    usageScore: options.usageScore ?? 0.8,
  }
}

function card(subject: string, label: string, end: string): DocumentCard {
  return { title: null, subjects: [subject], period: { label, start: end, end }, kind: 'quarterly report' }
}

const INCOME = (quarter: string, iphone: string, mac: string) =>
  [
    'GLOBEX INC.',
    'Net sales by category (In millions)',
    `| Three Months Ended ${quarter}`,
    `iPhone | ${iphone}`,
    `Mac | ${mac}`,
    'Total net sales | 81,797',
  ].join('\n')

const base = { botPrompt: { name: 'p', prompt: 'x' }, history: [], language: 'en' }

function ask(question: string, sources: RetrievedChunk[], span?: DocumentSpan): AnswerInput {
  return { ...base, question, standaloneQuestion: question, sources, ...(span ? { span } : {}) }
}

describe('extractive answerer: tables, spans and honesty', () => {
  const answerer = new ExtractiveAnswerer()

  it('quotes a table row under its title, unit and header, numbers verbatim', async () => {
    const sources = [chunk('q3', INCOME('July 1, 2023', '39,669', '6,840'), { table: true })]
    const answer = await answerer.answer(ask('What were iPhone net sales in the quarter?', sources))
    expect(answer.notFound).toBe(false)
    // The row whose own cells answer first; the others of its table only if they answer too.
    expect(answer.text).toBe(
      [
        'Here is what the knowledge base says:',
        '- Net sales by category (In millions)',
        '  | Three Months Ended July 1, 2023',
        '  iPhone | 39,669 [1]',
        '  Total net sales | 81,797 [1]',
      ].join('\n'),
    )
  })

  it("quotes what a passage says besides its document's own name", async () => {
    const bestBuy = card('Best Buy Co., Inc.', 'quarter ended July 29, 2023', '2023-07-29')
    const stores = ['BEST BUY CO., INC.', 'Stores by segment', '| Stores at end of quarter', 'Best Buy | 907']
    const earnings = [
      'BEST BUY CO., INC.',
      'Consolidated statements of earnings (In millions)',
      '| Three Months Ended July 29, 2023',
      'Revenue | 9,583',
      'Cost of sales | 7,357',
    ]
    const sources = [
      chunk('q2', stores.join('\n'), { card: bestBuy, table: true, usageScore: 1 }),
      chunk('q2', 'Table of Contents\nBEST BUY CO., INC.\nBest Buy thanks its customers and its employees.', {
        card: bestBuy,
        usageScore: 1,
      }),
      chunk('q2', earnings.join('\n'), { card: bestBuy, table: true, usageScore: 0.6 }),
    ]
    const question = "What was Best Buy's revenue?"
    const name = questionNames(question, 'en')[0] as never
    const span: DocumentSpan = { ...EMPTY_SPAN, documents: ['q2'], subjects: [{ name, documents: ['q2'] }] }
    const answer = await answerer.answer(ask(question, sources, span))
    // The row says the revenue; the name it lacks is the document's, which the question names.
    expect(answer.text).toContain('Revenue | 9,583 [3]')
    // A row labelled with the company's name, or its name alone, says nothing of its revenue.
    expect(answer.text).not.toContain('Best Buy | 907')
    expect(answer.text).not.toContain('BEST BUY CO., INC. [2]')
  })

  it('cites every page that writes a quoted row, and quotes it once', async () => {
    const summary = ['Highlights (In millions)', '| Three Months Ended July 29, 2023', 'Revenue | $9,583'].join('\n')
    const statement = [
      'Consolidated statements of earnings (In millions)',
      '| Three Months Ended July 29, 2023',
      'Revenue | 9,583',
      'Cost of sales | 7,357',
    ].join('\n')
    const sources = [chunk('q2', summary, { table: true }), chunk('q2', statement, { table: true })]
    const answer = await answerer.answer(ask('What was the revenue in the quarter?', sources))
    expect(answer.text.match(/Revenue \|/g)).toHaveLength(1)
    expect(answer.text).toContain('Revenue | $9,583 [1][2]')
    expect(answer.cited).toEqual([0, 1])
  })

  it("cites the other pages of a quoted passage's document that state its figure", async () => {
    const mdna = 'Revenue was $24,371 million in the quarter ended July 29, 2023, up from the prior year.'
    const statement = [
      'Consolidated statements of operations (In millions)',
      '| Three Months Ended July 29, 2023',
      'Total net sales | 24,371',
    ].join('\n')
    const yearOnly = 'The plan was adopted in 2023 by the board.'
    const sources = [
      chunk('q2', mdna),
      chunk('other', statement, { table: true }),
      chunk('q2', statement, { table: true }),
      chunk('q2', yearOnly),
    ]
    const answer = await answerer.answer(ask('What was the revenue in the quarter?', sources))
    // The statement names it otherwise, but writes the same amount: the reader sees both pages.
    expect(answer.text).toContain('up from the prior year. [1][3]')
    // Not another document's page that happens to hold the number, nor a page that shares the year.
    expect(answer.cited).toEqual([0, 2])
  })

  it('weighs only the question words some source has, so instructions no filing repeats do not sink it', async () => {
    const question =
      'What were the iPhone net sales of the quarter? Answer by relying primarily on the figures presented ' +
      'in the sales by category table of the report.'
    const sources = [chunk('q3', INCOME('July 1, 2023', '39,669', '6,840'), { table: true })]
    const answer = await answerer.answer(ask(question, sources))
    expect(answer.text).toContain('iPhone | 39,669 [1]')
  })

  it('says "not found" when the sources share only a word with the question', async () => {
    const sources = [chunk('q3', INCOME('July 1, 2023', '39,669', '6,840'), { table: true })]
    const answer = await answerer.answer(ask('Who approves annual leave requests for the quarter?', sources))
    expect(answer).toEqual({ text: 'The answer was not found in the knowledge base.', cited: [], notFound: true })
  })

  it('quotes only the documents of the subject the question names', async () => {
    const globex = card('Globex Inc.', 'quarter ended July 1, 2023', '2023-07-01')
    const initech = card('Initech Corp.', 'quarter ended July 1, 2023', '2023-07-01')
    const sources = [
      chunk('initech', 'Initech total net sales were 20,000 million in the quarter, up from 18,000 million.', {
        card: initech,
        usageScore: 0.9,
      }),
      chunk('globex', 'Total net sales were 81,797 million in the quarter, down from 82,959 million.', {
        card: globex,
        usageScore: 0.6,
      }),
    ]
    const question = "What were Globex's total net sales in the quarter?"
    const span: DocumentSpan = {
      ...EMPTY_SPAN,
      documents: ['globex'],
      subjects: [{ name: questionNames(question, 'en')[0] as never, documents: ['globex'] }],
    }
    const answer = await answerer.answer(ask(question, sources, span))
    expect(answer.cited).toEqual([1])
    expect(answer.text).toContain('81,797 million')
    expect(answer.text).not.toContain('20,000')
  })

  it('says "not found" when the question names someone no source is about', async () => {
    const sources = [
      chunk('initech', 'Initech total net sales were 20,000 million in the quarter, up from 18,000 million.', {
        card: card('Initech Corp.', 'quarter ended July 1, 2023', '2023-07-01'),
      }),
    ]
    const question = "What were Hooli's total net sales in the quarter?"
    const span: DocumentSpan = { ...EMPTY_SPAN, unknownNames: questionNames(question, 'en') }
    const answer = await answerer.answer(ask(question, sources, span))
    expect(answer.notFound).toBe(true)
    expect(answer.cited).toEqual([])
  })

  it('takes a word in capitals that only a few chunks in thousands have for a name no source is about', async () => {
    const sources = [
      chunk('initech', 'Initech revenue by region: the Americas region grew fastest in fiscal 2022, up 9 percent.', {
        card: card('Initech Corp.', 'fiscal year ended December 31, 2022', '2022-12-31'),
      }),
    ]
    const question = 'Which region had the best revenue performance for HOOLI in fiscal 2022?'
    const span: DocumentSpan = { ...EMPTY_SPAN, unknownNames: questionNames(question, 'en') }
    // Retrieval's view of the knowledge base (20,000 chunks): how many chunks hold each term.
    const askWith = (hooliChunks: number) => {
      const terms = ['region', 'best', 'revenu', 'perform', 'hooli', 'fiscal', '2022']
      const frequencies = terms.map((term) => (term === 'hooli' ? hooliChunks : 400))
      const weights = frequencies.map((df) => Math.log(1 + (20_000 - df + 0.5) / (df + 0.5)))
      return answerer.answer({
        ...ask(question, sources, span),
        query: { terms, language: 'en', weights, frequencies },
      })
    }
    // Another company's filing mentions them once: still someone no document is about.
    expect((await askWith(1)).notFound).toBe(true)
    // In dozens of chunks the word is the trade's abbreviation (like USD), not a name: the passage answers.
    const common = await askWith(60)
    expect(common.notFound).toBe(false)
    expect(common.text).toContain('Americas region grew fastest')
  })

  it('quotes one row per document of a trend, oldest period first, each labelled', async () => {
    const cards = {
      q1: card('Globex Inc.', 'quarter ended December 31, 2022', '2022-12-31'),
      q2: card('Globex Inc.', 'quarter ended April 1, 2023', '2023-04-01'),
      q3: card('Globex Inc.', 'quarter ended July 1, 2023', '2023-07-01'),
    }
    const sources = [
      chunk('q3', INCOME('July 1, 2023', '39,669', '6,840'), { table: true, card: cards.q3, usageScore: 0.9 }),
      chunk('q1', INCOME('December 31, 2022', '65,775', '7,735'), { table: true, card: cards.q1 }),
      chunk('q2', INCOME('April 1, 2023', '51,334', '7,168'), { table: true, card: cards.q2 }),
    ]
    const question = "How have Globex's iPhone net sales changed over the reported quarters?"
    const span: DocumentSpan = {
      ...EMPTY_SPAN,
      documents: ['q1', 'q2', 'q3'],
      spread: true,
      subjects: [{ name: questionNames(question, 'en')[0] as never, documents: ['q1', 'q2', 'q3'] }],
    }
    const answer = await answerer.answer(ask(question, sources, span))
    const rows = answer.text.split('\n').filter((line) => line.includes('iPhone |'))
    // [n] cites sources[n - 1]; the conversation renumbers them in the order they are cited.
    expect(rows).toEqual(['  iPhone | 65,775 [2]', '  iPhone | 51,334 [3]', '  iPhone | 39,669 [1]'])
    expect(answer.cited).toEqual([1, 2, 0])
    expect(answer.text).toContain('- Globex Inc., quarter ended December 31, 2022: Net sales by category')
  })

  it('quotes the same row in every document of a trend, even where another ranks first in one', async () => {
    const cards = {
      q1: card('Globex Inc.', 'quarter ended April 1, 2023', '2023-04-01'),
      q2: card('Globex Inc.', 'quarter ended July 1, 2023', '2023-07-01'),
    }
    const changes = [
      'Net sales changes over the reported quarters (In millions)',
      '| Three Months Ended July 1, 2023',
      'Quarters with changed net sales reported | 3',
    ].join('\n')
    const sources = [
      chunk('q2', changes, { table: true, card: cards.q2, usageScore: 1 }),
      chunk('q2', INCOME('July 1, 2023', '39,669', '6,840'), { table: true, card: cards.q2, usageScore: 0.7 }),
      chunk('q1', INCOME('April 1, 2023', '51,334', '7,168'), { table: true, card: cards.q1, usageScore: 0.7 }),
    ]
    const question = "How have Globex's total net sales changed over the reported quarters?"
    const span: DocumentSpan = {
      ...EMPTY_SPAN,
      documents: ['q1', 'q2'],
      spread: true,
      subjects: [{ name: questionNames(question, 'en')[0] as never, documents: ['q1', 'q2'] }],
    }
    const answer = await answerer.answer(ask(question, sources, span))
    // Both quarters by the line they share, not the later one by a row only it has.
    expect(answer.text.match(/Total net sales \| 81,797/g)).toHaveLength(2)
    expect(answer.text).not.toContain('Quarters with changed net sales reported')
  })

  it("prefers the passage that says the question's words together", async () => {
    const balance = [
      'Globex Corporation Consolidated Balance Sheets (in millions)',
      '| December 31, 2023 | December 31, 2022',
      'Total current assets | 19,815 | 19,378',
      'Total current liabilities | 13,997 | 13,933',
    ].join('\n')
    // Every word of the question, none of them together.
    const prose = chunk(
      'notes',
      'Liabilities that are current included accrued costs; assets grew, and the total rose with current sales.',
      { usageScore: 0.8 },
    )
    const answer = await answerer.answer(
      ask('What were total current assets and total current liabilities?', [
        prose,
        chunk('balance', balance, { table: true, usageScore: 0.8 }),
      ]),
    )
    const quoted = answer.text
      .split('\n')
      .filter((line) => line.includes('['))
      .map((line) => line.trim())
    expect(quoted.slice(0, 2).sort()).toEqual([
      'Total current assets | 19,815 | 19,378 [2]',
      'Total current liabilities | 13,997 | 13,933 [2]',
    ])
  })

  it('quotes the report of the period the question names before the next one, which repeats its figures', async () => {
    const sheet = (year: number) =>
      [
        'Globex Corporation Consolidated Balance Sheets (in millions)',
        `| December 31, ${year} | December 31, ${year - 1}`,
        year === 2022 ? 'Total current assets | 20,991 | 19,815' : 'Total current assets | 19,815 | 19,378',
      ].join('\n')
    const sources = [
      chunk('fy2022', sheet(2022), {
        table: true,
        usageScore: 0.85,
        card: card('Globex Corporation', 'fiscal 2022', '2022-12-31'),
      }),
      chunk('fy2021', sheet(2021), {
        table: true,
        usageScore: 0.9,
        card: card('Globex Corporation', 'fiscal 2021', '2021-12-31'),
      }),
    ]
    // `the latest year` resolved against the cards (documentSpan) to the fiscal 2022 report.
    const question = "What were Globex's total current assets in the latest year?"
    const span: DocumentSpan = { ...EMPTY_SPAN, documents: ['fy2022'], periodScores: new Map([['fy2022', 1]]) }
    const answer = await answerer.answer(ask(question, sources, span))
    expect(answer.cited[0]).toBe(0)
    expect(answer.text.split('\n').find((line) => line.includes('['))).toContain('20,991 | 19,815 [1]')
  })

  it('quotes the row that gives the figure under its head before a sentence that only speaks of it', async () => {
    const policy = chunk(
      'policy',
      'At December 31, 2018, Globex classified money market funds as cash and cash equivalents in its consolidated balance sheets.',
      { usageScore: 0.9 },
    )
    const balance = [
      'Globex Corporation Consolidated Balance Sheets (in thousands)',
      '| December 31, 2018 | December 31, 2017',
      'Cash and cash equivalents | 1,526,762 | 1,499,995',
      'Accounts payable | 302,578 | 255,028',
      'Total current liabilities | 3,041,492 | 2,583,721',
    ].join('\n')
    const answer = await answerer.answer(
      ask(
        'What were cash and cash equivalents in the consolidated balance sheets of Globex at December 31, 2018, in thousands?',
        [policy, chunk('balance', balance, { table: true, usageScore: 0.8 })],
      ),
    )
    // A row's own cells say only what it is; its head says where and when.
    expect(
      answer.text
        .split('\n')
        .find((line) => line.includes('['))
        ?.trim(),
    ).toBe('Cash and cash equivalents | 1,526,762 | 1,499,995 [2]')
  })

  it('quotes about a name no document is about only what names it', async () => {
    const sources = [
      chunk(
        'initech',
        'Competitors include Hooli and other lantern makers. Total revenues grew to 20,000 million in the year, up from 18,000 million.',
        { card: card('Initech Corp.', 'fiscal year 2023', '2023-12-31') },
      ),
    ]
    const question = "What were Hooli's total revenues in the year?"
    const span: DocumentSpan = { ...EMPTY_SPAN, unknownNames: questionNames(question, 'en') }
    const answer = await answerer.answer(ask(question, sources, span))
    expect(answer.text).not.toContain('20,000')
  })

  it('says "not found" when the only passage naming them shares nothing else with the question but a number', async () => {
    const sources = [
      chunk(
        'initech',
        [
          'Hooli, Globex and Umbrella are some of our primary competitors in 2022.',
          'Exhibit 10.5: Master Agreement, dated as of May 2, 2005, between Initech Corp. and Hooli Inc.',
        ].join(' '),
        { card: card('Initech Corp.', 'fiscal year 2022', '2022-12-31') },
      ),
    ]
    for (const question of [
      'Who are the primary customers of Hooli as of 2022?',
      "What is Hooli's 2 year revenue growth?",
    ]) {
      const span: DocumentSpan = { ...EMPTY_SPAN, unknownNames: questionNames(question, 'en') }
      const answer = await answerer.answer(ask(question, sources, span))
      expect(answer, question).toMatchObject({ notFound: true, cited: [] })
    }
  })

  it('reads rows under their section label and never quotes the label alone', async () => {
    const balance = [
      'Globex Corporation Consolidated Balance Sheets (in thousands)',
      '| December 31, 2018 | December 31, 2017',
      'Current assets:',
      'Cash and cash equivalents | 1,526,762 | 1,499,995',
      'Total | 2,900,000 | 2,700,000',
      'Current liabilities:',
      'Accounts payable | 302,578 | 255,028',
      'Total | 3,041,492 | 2,583,721',
    ].join('\n')
    const answer = await answerer.answer(
      ask('What were the total current liabilities of Globex?', [chunk('balance', balance, { table: true })]),
    )
    const quoted = answer.text.split('\n').filter((line) => line.includes('['))
    expect(quoted[0]?.trim()).toBe('Total | 3,041,492 | 2,583,721 [1]')
    expect(quoted.join('\n')).not.toContain('Current liabilities:')
  })

  it("weighs the question's words by their rarity in the knowledge base, so an instruction's words do not choose", async () => {
    const question =
      'Using the following statement, answer to the best of your abilities: how much cash did Globex generate from operating activities?'
    const sources = [
      chunk(
        'risks',
        'Our abilities to answer the following customer questions using our statement tools may be limited.',
        {
          usageScore: 0.9,
        },
      ),
      chunk(
        'cash',
        [
          'Globex Corporation Consolidated Statements of Cash Flows (in thousands)',
          '| Year Ended December 31, 2020',
          'Net cash provided by operating activities | 381,603',
          'Net cash used in investing activities | (606,636)',
        ].join('\n'),
        { table: true },
      ),
      chunk('liquidity', 'Cash from operating activities funds the cash needs of our operating segments.'),
      chunk('segments', 'Globex operating cash flow and operating margin differ by segment and activity.'),
      chunk('leases', 'Operating lease payments are operating cash outflows of Globex activities.'),
    ]
    // Retrieval's idf over the whole knowledge base: the instruction's words are in most filings.
    const weights: Record<string, number> = { use: 0.4, follow: 0.3, statement: 0.9, answer: 0.5, best: 0.6, abil: 0.5 }
    const terms = [
      'use',
      'follow',
      'statement',
      'answer',
      'best',
      'abil',
      'much',
      'cash',
      'globex',
      'generat',
      'oper',
      'activ',
    ]
    const query = {
      terms,
      language: 'en',
      weights: terms.map((term) => weights[term] ?? 3),
      frequencies: terms.map(() => 10),
    }
    const answer = await answerer.answer({ ...ask(question, sources), query })
    expect(
      answer.text
        .split('\n')
        .find((line) => line.includes('['))
        ?.trim(),
    ).toBe('Net cash provided by operating activities | 381,603 [2]')
  })

  it('does not take the way a question writes its period for evidence', async () => {
    const sources = [
      chunk(
        'outlook',
        [
          'The FY23 appropriations support F/A-18 production rates into 2025.',
          'We expect to increase the production rates of the 787 program in 2023.',
        ].join(' '),
      ),
    ]
    const question = 'What production rate changes is Globex forecasting for FY2023?'
    // `FY` is rare in a knowledge base that writes "fiscal year": retrieval would weigh it most.
    const weights: Record<string, number> = { fy2023: 8, fy: 6, 2023: 2.5, globex: 3 }
    const terms = ['product', 'rate', 'chang', 'globex', 'forecast', 'fy2023', 'fy', '2023']
    const query = {
      terms,
      language: 'en',
      weights: terms.map((term) => weights[term] ?? 2),
      frequencies: terms.map(() => 5),
    }
    const answer = await answerer.answer({ ...ask(question, sources), query })
    expect(answer.text.split('\n')[1]).toBe(
      '- We expect to increase the production rates of the 787 program in 2023. [1]',
    )
  })

  it('quotes up to five passages of one document, so a four-quarter trend written in sentences shows whole', async () => {
    const sentences = [
      'Research and development expense rose in the first quarter on engineering headcount.',
      'Research and development expense in the second quarter included new laboratory leases.',
      'Research and development expense grew in the third quarter with prototype tooling costs.',
      'Research and development expense in the fourth quarter reflected annual bonus accruals.',
      'Research and development expense of each quarter included stock-based compensation.',
      'Research and development expense of every quarter moved with foreign exchange rates.',
    ]
    const sources = sentences.map((sentence, index) => ({ ...chunk('annual', sentence), chunkId: `annual-${index}` }))
    const answer = await answerer.answer(ask('What drove research and development expense each quarter?', sources))
    const quoted = answer.text.split('\n').filter((line) => line.startsWith('- Research'))
    expect(quoted).toHaveLength(5)
    expect(answer.cited).toHaveLength(5)
  })
})
