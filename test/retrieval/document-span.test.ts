import { describe, expect, it } from 'vitest'
import { DocumentContextIndex } from '../../src/retrieval/context/document-context.js'
import { documentSpan } from '../../src/retrieval/context/span.js'
import type { DocumentCard } from '../../src/storage/ports/document-card.js'

function report(
  documentId: string,
  subjects: string[],
  period: { start: string; end: string; label: string; fiscalYear?: number; fiscalQuarter?: number },
  kind = 'quarterly report',
) {
  const card: DocumentCard = { title: null, subjects, period, kind }
  return { documentId, objectName: `/filings/filing-${documentId}.pdf`, card, language: 'en' }
}

const GLOBEX = ['Globex Corporation', 'GBX']
const INITECH = ['Initech, Inc.', 'INTK']

const quarter = (end: string, start: string, fiscalQuarter: number, fiscalYear: number) => ({
  start,
  end,
  label: `quarter ended ${end}`,
  fiscalQuarter,
  fiscalYear,
})

const context = new DocumentContextIndex([
  report('g1', GLOBEX, quarter('2022-12-31', '2022-10-02', 1, 2023)),
  report('g2', GLOBEX, quarter('2023-04-01', '2023-01-01', 2, 2023)),
  report('g3', GLOBEX, quarter('2023-07-01', '2023-04-02', 3, 2023)),
  report(
    'g0',
    GLOBEX,
    { start: '2021-09-26', end: '2022-09-24', label: 'fiscal year ended September 24, 2022', fiscalYear: 2022 },
    'annual report',
  ),
  report('i1', INITECH, quarter('2023-03-31', '2023-01-01', 1, 2023)),
  report('i2', INITECH, quarter('2023-06-30', '2023-04-01', 2, 2023)),
])

const span = (question: string, scope: string[] | null = null) => documentSpan(context, question, 'en', scope)

describe('document span', () => {
  it("resolves a relative period within the named subject's documents", () => {
    const latest = span("What was Globex's R&D expense in the most recent quarter?")
    expect(latest.documents).toEqual(['g3'])
    expect(latest.spread).toBe(false)
    expect(span("What was Initech's R&D expense in the most recent quarter?").documents).toEqual(['i2'])
  })

  it('takes every quarter of a trend, oldest first, and spreads over them', () => {
    const trend = span("How have Globex's net sales changed over the reported quarters?")
    expect(trend.documents).toEqual(['g1', 'g2', 'g3'])
    expect(trend.spread).toBe(true)
  })

  it('compares subjects: each subject with its own latest period', () => {
    const both = span('Compare the operating income of Globex and Initech in the latest quarter.')
    expect([...both.documents].sort()).toEqual(['g3', 'i2'])
    expect(both.spread).toBe(true)
    expect(both.subjects.map((subject) => subject.name.surface)).toEqual(['Globex', 'Initech'])
  })

  it('compares subjects with no period said on their latest documents', () => {
    const both = span('How do the research budgets of Globex and Initech compare?')
    expect([...both.documents].sort()).toEqual(['g3', 'i2'])
    expect(both.spread).toBe(true)
    // One subject with no period: all of its documents, no spread.
    const one = span("What does Globex's research budget go to?")
    expect([...one.documents].sort()).toEqual(['g0', 'g1', 'g2', 'g3'])
    expect(one.spread).toBe(false)
  })

  it('reads one subject with no period said in its latest documents first', () => {
    const one = span("What does Globex's research budget go to?")
    // Its current state: the latest report first and fitting best, the older ones still searched.
    expect(one.documents[0]).toBe('g3')
    expect([...one.periodScores]).toEqual([['g3', 1]])
    // A document without a period is not older than the others.
    const undated = new DocumentContextIndex([
      report('g2', GLOBEX, quarter('2023-04-01', '2023-01-01', 2, 2023)),
      report('g3', GLOBEX, quarter('2023-07-01', '2023-04-02', 3, 2023)),
      {
        ...report('policy', GLOBEX, quarter('2023-07-01', '2023-04-02', 3, 2023)),
        card: { title: null, subjects: GLOBEX, period: null, kind: 'policy' },
      },
    ])
    const scores = documentSpan(undated, "What does Globex's research budget go to?", 'en', null).periodScores
    expect(new Map(scores)).toEqual(
      new Map([
        ['g3', 1],
        ['policy', 1],
      ]),
    )
  })

  it('finds a subject by its ticker and a period named outright', () => {
    expect(span('INTK revenue in Q2 2023').documents).toEqual(['i2'])
    // Without a subject, the period chooses among all documents: quarters ending within days of it.
    expect([...span('Which reports cover the quarter ended July 1, 2023?').documents].sort()).toEqual(['g3', 'i2'])
  })

  it('prefers the kind the question names', () => {
    expect(span("What did Globex's annual report say about risks?").documents).toEqual(['g0'])
  })

  it('gives the names no document is about, and nothing when the question names no card', () => {
    const unknown = span("What was Hooli's revenue in fiscal 2023?")
    expect(unknown.unknownNames.map((name) => name.surface)).toEqual(['Hooli'])
    expect(unknown.subjects).toEqual([])
    expect(span('What is the leave policy?').documents).toEqual([])
  })

  it('keeps to the scope', () => {
    expect(span("Globex's most recent quarter", ['g1', 'g2', 'i1']).documents).toEqual(['g2'])
  })
})
