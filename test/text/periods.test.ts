import { describe, expect, it } from 'vitest'
import type { Period } from '../../src/storage/ports/document-card.js'
import { periodWords } from '../../src/text/periods/period-words.js'
import {
  COMPARATIVE,
  datesIn,
  FULL,
  matchPeriods,
  PART,
  type PeriodCandidate,
  periodLabel,
  periodReferences,
  periodsIn,
  WHOLE,
} from '../../src/text/periods.js'

type Expected = Partial<Period> & { readonly grain: string; readonly form?: string; readonly text?: string }

/** What periodsIn reads from each text: its first mention, or every mention in order. */
const DOCUMENT_TEXT: readonly [string, Expected | readonly Expected[]][] = [
  [
    'For the quarterly period ended July 2, 2023',
    {
      grain: 'quarter',
      form: 'ended',
      start: '2023-04-03',
      end: '2023-07-02',
      text: 'quarterly period ended July 2, 2023',
    },
  ],
  ['For the Quarterly Period Ended December 31, 2022', { grain: 'quarter', start: '2022-10-01', end: '2022-12-31' }],
  ['three months ended June 30, 2023', { grain: 'quarter', start: '2023-04-01', end: '2023-06-30' }],
  ['six months ended June 30, 2023', { grain: 'half', start: '2023-01-01', end: '2023-06-30' }],
  ['nine months ended September 30, 2023', { grain: 'nine-months', start: '2023-01-01', end: '2023-09-30' }],
  ['the 12 weeks ended March 25, 2023', { grain: 'quarter', start: '2023-01-01', end: '2023-03-25' }],
  ['the 52 weeks ended January 28, 2023', { grain: 'year', start: '2022-01-30', end: '2023-01-28' }],
  ['For the fiscal year ended November 27, 2015', { grain: 'year', start: '2014-11-29', end: '2015-11-27' }],
  ['for the year ended December 31, 2022', { grain: 'year', start: '2022-01-01', end: '2022-12-31' }],
  ['second quarter ended July 2, 2023', { grain: 'quarter', fiscalQuarter: 2, end: '2023-07-02' }],
  ['for the quarter and year ended December 31, 2022', { grain: 'quarter', start: '2022-10-01', end: '2022-12-31' }],
  ['exercice clos le 31 décembre 2022', { grain: 'year', start: '2022-01-01', end: '2022-12-31' }],
  ['trimestre clos le 30 juin 2023', { grain: 'quarter', end: '2023-06-30' }],
  ['Geschäftsjahr zum 31. Dezember 2022', { grain: 'year', end: '2022-12-31' }],
  ['für das am 30. Juni 2023 endende Quartal', { grain: 'quarter', end: '2023-06-30' }],
  ['ejercicio terminado el 31 de diciembre de 2022', { grain: 'year', end: '2022-12-31' }],
  [
    'first quarter of fiscal 2024',
    { grain: 'quarter', form: 'named', fiscalYear: 2024, fiscalQuarter: 1, start: '2024-01-01', end: '2024-03-31' },
  ],
  ['fiscal 2024 first quarter', { grain: 'quarter', fiscalYear: 2024, fiscalQuarter: 1 }],
  ['Reports 2023 Second-Quarter Results', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 2 }],
  ['PepsiCo Reports First-Quarter 2023 Results', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 1 }],
  ['FOURTH QUARTER AND FULL YEAR 2022 RESULTS', { grain: 'quarter', fiscalYear: 2022, fiscalQuarter: 4 }],
  ['Q2 2023', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 2, start: '2023-04-01', end: '2023-06-30' }],
  ['2023 Q3', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 3 }],
  ['AMCOR_2023Q2_10Q'.replace(/_/g, ' '), { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 2 }],
  ['4Q 2023', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 4 }],
  ['3Q23', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 3 }],
  ['Q2 FY24', { grain: 'quarter', fiscalYear: 2024, fiscalQuarter: 2 }],
  ['T2 2023', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 2 }],
  ['deuxième trimestre 2023', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 2 }],
  ['2. Quartal 2023', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 2 }],
  ['segundo trimestre de 2023', { grain: 'quarter', fiscalYear: 2023, fiscalQuarter: 2 }],
  ['the June 2023 quarter', { grain: 'quarter', start: '2023-04-01', end: '2023-06-30' }],
  ['fiscal 2023', { grain: 'year', form: 'named', fiscalYear: 2023 }],
  ['fiscal year 2023', { grain: 'year', fiscalYear: 2023 }],
  ['FY2022', { grain: 'year', fiscalYear: 2022 }],
  ['FY22', { grain: 'year', fiscalYear: 2022 }],
  ['Geschäftsjahr 2022', { grain: 'year', fiscalYear: 2022 }],
  ['H1 2023', { grain: 'half', fiscalYear: 2023, start: '2023-01-01', end: '2023-06-30' }],
  ['first half of 2023', { grain: 'half', fiscalYear: 2023, start: '2023-01-01', end: '2023-06-30' }],
  ['second half of fiscal 2023', { grain: 'half', fiscalYear: 2023, start: '2023-07-01', end: '2023-12-31' }],
  ['premier semestre 2023', { grain: 'half', fiscalYear: 2023 }],
  ['March 2024', { grain: 'month', form: 'date', start: '2024-03-01', end: '2024-03-31' }],
  ['mars 2024', { grain: 'month', start: '2024-03-01', end: '2024-03-31' }],
  ['July 2, 2023', { grain: 'day', start: '2023-07-02', end: '2023-07-02' }],
  ['2 July 2023', { grain: 'day', start: '2023-07-02' }],
  ['2023-07-02', { grain: 'day', start: '2023-07-02' }],
  ['1er juillet 2023', { grain: 'day', start: '2023-07-01' }],
  ['2. Juli 2023', { grain: 'day', start: '2023-07-02' }],
  ['2 de julio de 2023', { grain: 'day', start: '2023-07-02' }],
  ['filed 05/19/2022', { grain: 'day', start: '2022-05-19' }],
  ['Annual Report 2022', { grain: 'year', form: 'year', start: '2022-01-01', end: '2022-12-31' }],
  ['from 2021 to 2023', { grain: 'span', form: 'range', start: '2021-01-01', end: '2023-12-31' }],
  ['FY2017 - FY2019', { grain: 'span', form: 'range', start: '2017-01-01', end: '2019-12-31' }],
  [
    'three and six months ended June 30, 2023 and 2022',
    [
      { grain: 'quarter', form: 'ended', end: '2023-06-30' },
      { grain: 'year', form: 'year', start: '2022-01-01' },
    ],
  ],
]

describe('periodsIn (document text)', () => {
  it.each(DOCUMENT_TEXT)('reads %j', (text, expected) => {
    const mentions = periodsIn(text)
    const wanted = Array.isArray(expected) ? expected : [expected]
    expect(mentions.length).toBeGreaterThanOrEqual(wanted.length)
    wanted.forEach((want, index) => {
      const { grain, form, text: words, ...period } = want as Expected
      const mention = mentions[index]
      expect(mention?.grain).toBe(grain)
      if (form) expect(mention?.form).toBe(form)
      if (words) expect(mention?.text).toBe(words)
      expect(mention?.period).toMatchObject(period)
    })
  })

  it('reads no period in amounts, percentages, ISO codes or numbers that are not years', () => {
    expect(periodsIn('Revenue of $2,023 million rose 2019% on 1,2020 units, 2020-21 items, €2021')).toEqual([])
    // No quarter 5, no 13th month, no 30 February, no third half: only their years are left (13/13/2023 is no date at all).
    const mentions = periodsIn('Q5 2023, Q0 2023, 13/13/2023, February 30, 2023, H3 2023')
    expect(mentions.map((mention) => mention.grain)).toEqual(['year', 'year', 'year', 'year'])
  })

  it('leaves bare years out when asked to', () => {
    expect(periodsIn('In 2022 and 2023 revenue grew.', { bareYears: false })).toEqual([])
  })
})

describe('datesIn', () => {
  it('reads slashed dates only when day and month cannot be confused', () => {
    expect(datesIn('04/05/2023')).toEqual([])
    expect(datesIn('19/05/2022')[0]).toMatchObject({ year: 2022, month: 5, day: 19 })
  })
})

describe('periodLabel', () => {
  it.each([
    ['For the quarterly period ended July 2, 2023', 'en', 'quarter ended July 2, 2023'],
    ['For the fiscal year ended November 27, 2015', 'en', 'fiscal year ended November 27, 2015'],
    ['Q2 2023', 'en', 'Q2 2023'],
    ['fiscal 2023', 'en', 'fiscal 2023'],
    ['H1 2023', 'en', 'H1 2023'],
    ['March 2024', 'en', 'March 2024'],
    ['July 1, 2022', 'en', 'July 1, 2022'],
    ['For the quarterly period ended July 2, 2023', 'fr', 'trimestre clos le 2 juillet 2023'],
    ['For the quarterly period ended July 2, 2023', 'de', 'Quartal zum 2. Juli 2023'],
    ['For the quarterly period ended July 2, 2023', 'es', 'trimestre terminado el 2 de julio de 2023'],
    ['from 2021 to 2023', 'en', '2021–2023'],
  ])('labels %j in %s as %j', (text, language, label) => {
    const [mention] = periodsIn(text)
    expect(mention && periodLabel(mention, language)).toBe(label)
  })

  it('adds the fiscal quarter to an exact quarter when it is known', () => {
    const [mention] = periodsIn('For the quarterly period ended July 2, 2023')
    if (!mention) throw new Error('no mention')
    const period = { ...mention.period, fiscalYear: 2023, fiscalQuarter: 2 }
    expect(periodLabel({ ...mention, period }, 'en')).toBe('quarter ended July 2, 2023 (Q2 of fiscal 2023)')
  })
})

const QUESTIONS: readonly [string, readonly Record<string, unknown>[]][] = [
  ['What was revenue in the most recent quarter?', [{ kind: 'latest', grain: 'quarter', offset: 0, count: 1 }]],
  ['What was the latest 10-K net income?', [{ kind: 'latest', grain: 'year', offset: 0 }]],
  ["What was last year's dividend?", [{ kind: 'latest', grain: 'year', offset: 0 }]],
  ['What was net income in the prior year?', [{ kind: 'latest', grain: 'year', offset: 1 }]],
  ['How did margin change compared with the prior year?', []],
  ['What drove the change versus the prior year period?', []],
  ['What were sales in the first half?', [{ kind: 'latest', grain: 'half', part: 1 }]],
  ['What was Q2 revenue?', [{ kind: 'latest', grain: 'quarter', part: 2 }]],
  ['What is the trend over the last three years?', [{ kind: 'latest', grain: 'year', count: 3 }]],
  ['Show revenue for each quarter', [{ kind: 'every', grain: 'quarter' }]],
  ['How did margins move over the reported quarters?', [{ kind: 'every', grain: 'quarter' }]],
  ['How did revenue develop year over year?', [{ kind: 'every', grain: 'year' }]],
  // With a period named outright, "year over year" compares it with the year before: not every year.
  [
    'Which region had the biggest drop in Q2 2023 year over year revenues?',
    [{ kind: 'absolute', grain: 'quarter', period: { fiscalYear: 2023, fiscalQuarter: 2 } }],
  ],
  [
    'Revenue in 2022, quarter by quarter',
    [
      { kind: 'absolute', grain: 'year', period: { start: '2022-01-01' } },
      { kind: 'every', grain: 'quarter' },
    ],
  ],
  [
    "As of Q2'2023, what changed?",
    [{ kind: 'absolute', grain: 'quarter', period: { fiscalQuarter: 2, end: '2023-06-30' } }],
  ],
  ["Sales in H1'2023", [{ kind: 'absolute', grain: 'half', period: { start: '2023-01-01', end: '2023-06-30' } }]],
  ['What was the capex in FY2018?', [{ kind: 'absolute', grain: 'year', period: { fiscalYear: 2018 } }]],
  ['Revenue in fiscal 2022?', [{ kind: 'absolute', grain: 'year', period: { fiscalYear: 2022 }, fiscal: true }]],
  ['Revenue in 2022?', [{ kind: 'absolute', grain: 'year', period: { start: '2022-01-01' } }]],
  [
    'Revenue for Q2 2023 vs Q2 2022',
    [
      { kind: 'absolute', grain: 'quarter', period: { fiscalYear: 2023, fiscalQuarter: 2 } },
      { kind: 'absolute', grain: 'quarter', period: { fiscalYear: 2022, fiscalQuarter: 2 } },
    ],
  ],
  ['sales in the first half of 2023', [{ kind: 'absolute', grain: 'half', period: { start: '2023-01-01' } }]],
  ['invoices of March 2024', [{ kind: 'absolute', grain: 'month', period: { start: '2024-03-01' } }]],
  ['operating income from 2021 to 2023', [{ kind: 'absolute', grain: 'span', period: { end: '2023-12-31' } }]],
  ['the FY2017 - FY2019 average', [{ kind: 'absolute', grain: 'span', period: { start: '2017-01-01' } }]],
  ['Quel était le chiffre d’affaires du dernier trimestre ?', [{ kind: 'latest', grain: 'quarter' }]],
  ['Wie hoch war der Umsatz im Vorjahr?', [{ kind: 'latest', grain: 'year', offset: 1 }]],
  ['¿Cuáles fueron las ventas del último trimestre?', [{ kind: 'latest', grain: 'quarter' }]],
]

describe('periodReferences (questions)', () => {
  it.each(QUESTIONS)('reads %j', (question, expected) => {
    const references = periodReferences(question)
    expect(references).toHaveLength(expected.length)
    expected.forEach((want, index) => {
      expect(references[index]).toMatchObject(want)
    })
  })
})

/** A quarter's report ending on `end`, with fiscal numbers when given. */
function quarter(id: string, start: string, end: string, fiscalYear?: number, fiscalQuarter?: number): PeriodCandidate {
  return { id, period: { start, end, ...(fiscalYear ? { fiscalYear, fiscalQuarter } : {}) } }
}

function annual(id: string, start: string, end: string, fiscalYear?: number): PeriodCandidate {
  return { id, period: { start, end, ...(fiscalYear ? { fiscalYear } : {}) } }
}

function scores(question: string, candidates: readonly PeriodCandidate[]): Record<string, number> {
  return Object.fromEntries(matchPeriods(periodReferences(question), candidates).map((s) => [s.id, s.score]))
}

describe('matchPeriods', () => {
  // A 52/53-week company (quarters end on Sundays) and a calendar one, as in a knowledge base of filings.
  const CANDIDATES: readonly PeriodCandidate[] = [
    quarter('pfe-q1', '2023-01-02', '2023-04-02', 2023, 1),
    quarter('pfe-q2', '2023-04-03', '2023-07-02', 2023, 2),
    quarter('mgm-q1', '2023-01-01', '2023-03-31'),
    quarter('mgm-q2', '2023-04-01', '2023-06-30'),
    annual('pfe-2022', '2022-01-01', '2022-12-31', 2022),
    annual('pfe-2021', '2021-01-01', '2021-12-31', 2021),
    { id: 'manual', period: null },
  ]

  it('takes the most recent quarter across companies, counting 52/53-week quarter ends with calendar ones', () => {
    const result = scores('What was revenue in the most recent quarter?', CANDIDATES)
    expect(result['pfe-q2']).toBe(FULL)
    expect(result['mgm-q2']).toBe(FULL)
    expect(result['pfe-q1']).toBe(0)
    expect(result['pfe-2022']).toBe(0)
    expect(result.manual).toBe(0)
  })

  it('matches a named quarter by the fiscal quarter the text gave, else by the calendar quarter it ends in', () => {
    const result = scores('Revenue in Q2 2023', CANDIDATES)
    expect(result['pfe-q2']).toBe(FULL)
    // Ends June 30: the calendar's second quarter, but no text said it is the fiscal one.
    expect(result['mgm-q2']).toBeGreaterThan(PART)
    expect(result['mgm-q2']).toBeLessThan(FULL)
    // April 2 is two days after the first quarter's end: a 52/53-week first quarter, not the second.
    expect(result['pfe-q1']).toBe(0)
  })

  it("matches a fiscal quarter that is not the calendar's by its fiscal number", () => {
    const amcor = quarter('amcor-q2', '2022-10-01', '2022-12-31', 2023, 2)
    expect(scores('second quarter of fiscal 2023', [amcor])['amcor-q2']).toBe(FULL)
    expect(scores('Q4 2022', [amcor])['amcor-q2']).toBeGreaterThan(PART)
  })

  it('matches a quarter the question calls fiscal by fiscal numbers only', () => {
    const amcorQ4 = quarter('amcor-q4', '2023-04-01', '2023-06-30', 2023, 4)
    expect(scores('Q2 FY2023', [amcorQ4])['amcor-q4']).toBe(0)
    expect(scores('Q2 2023', [amcorQ4])['amcor-q4']).toBeGreaterThan(PART)
  })

  it('steps back by calendar quarters and years from the latest, whether or not a document covers them', () => {
    const result = scores('the previous quarter', CANDIDATES)
    expect(result['pfe-q1']).toBe(FULL)
    expect(result['mgm-q1']).toBe(FULL)
    expect(result['pfe-q2']).toBe(0)
    const gap = [annual('y2022', '2022-01-01', '2022-12-31', 2022), annual('y2020', '2020-01-01', '2020-12-31', 2020)]
    expect(scores('the prior year', gap)).toEqual({ y2022: COMPARATIVE, y2020: 0 })
    expect(scores('the last three years', gap)).toEqual({ y2022: FULL, y2020: FULL })
  })

  it('matches a year to its annual report fully, its quarters partly and the next annual report as comparative', () => {
    const result = scores('What was revenue in 2022?', [
      ...CANDIDATES,
      annual('pfe-2023', '2023-01-01', '2023-12-31', 2023),
      quarter('pfe-2022-q3', '2022-07-04', '2022-10-02', 2022, 3),
    ])
    expect(result['pfe-2022']).toBe(FULL)
    expect(result['pfe-2022-q3']).toBe(PART)
    expect(result['pfe-2023']).toBe(COMPARATIVE)
    expect(result['pfe-2021']).toBe(0)
  })

  it('reads a 52/53-week year that ends a few days into January as the year before', () => {
    const result = scores('fiscal 2022', [annual('ends-jan-1', '2022-01-03', '2023-01-01')])
    expect(result['ends-jan-1']).toBe(FULL)
  })

  it('resolves last year and the prior year against the latest annual report', () => {
    expect(scores('last year', CANDIDATES)).toMatchObject({ 'pfe-2022': FULL, 'pfe-2021': 0 })
    expect(scores('the prior year', CANDIDATES)).toMatchObject({ 'pfe-2021': FULL, 'pfe-2022': COMPARATIVE })
  })

  it('resolves the first half against the latest year that has one', () => {
    const result = scores('sales in the first half', CANDIDATES)
    expect(result['pfe-q1']).toBe(PART)
    expect(result['mgm-q2']).toBe(PART)
    expect(result['pfe-2022']).toBe(0)
  })

  it('gives every quarter for "each quarter", and longer reports a little', () => {
    const result = scores('revenue in each quarter', CANDIDATES)
    expect(result['pfe-q1']).toBe(FULL)
    expect(result['mgm-q2']).toBe(FULL)
    expect(result['pfe-2022']).toBe(WHOLE)
  })

  it('matches a letter dated in a named month fully and a range year by year', () => {
    const letter = { id: 'letter', period: { start: '2024-03-05', end: '2024-03-05' } }
    expect(scores('the March 2024 letter', [letter]).letter).toBe(FULL)
    const result = scores('from 2021 to 2022', CANDIDATES)
    expect(result['pfe-2021']).toBe(FULL)
    expect(result['pfe-2022']).toBe(FULL)
  })

  it('scores every candidate 1 when the question names no period', () => {
    expect(Object.values(scores('What is the leave policy?', CANDIDATES))).toEqual(CANDIDATES.map(() => 1))
  })
})

describe('periodWords (questions)', () => {
  it('gives the words that only write a period, never its years', () => {
    expect(periodWords('What production rate changes is Globex forecasting for FY2023?', 'en')).toEqual(
      new Set(['fy2023', 'fy']),
    )
    expect(periodWords('What were sales in the first half of fiscal 2023?', 'en')).toEqual(
      new Set(['first', 'half', 'fiscal']),
    )
  })

  it('keeps a word the question also uses outside its periods, and gives nothing without a period', () => {
    expect(periodWords('How did fiscal policy change in fiscal 2023?', 'en')).toEqual(new Set())
    expect(periodWords('Who are the primary customers of Globex?', 'en')).toEqual(new Set())
  })
})
