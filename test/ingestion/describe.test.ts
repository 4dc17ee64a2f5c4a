import { describe, expect, it } from 'vitest'
import type { Block, ParsedDocument } from '../../src/ingestion/model.js'
import { describeDocument, keyPhrases, MAX_DESCRIPTION_CHARS } from '../../src/ingestion/pipeline/describe.js'

function doc(blocks: Block[], title?: string): ParsedDocument {
  return { blocks, pageCount: 1, documentType: 'text', ...(title ? { title } : {}) }
}

const LEAVE: Block[] = [
  { kind: 'paragraph', text: 'Page 1 of 3' },
  { kind: 'paragraph', text: 'CONFIDENTIAL - internal use only' },
  { kind: 'heading', level: 1, text: 'Leave Policy' },
  {
    kind: 'paragraph',
    text:
      'This policy explains how employees request annual leave. Annual leave must be approved by the line manager ' +
      'before it is taken. Unused annual leave can be carried over until March. This sentence is the fourth one.',
  },
  { kind: 'heading', level: 2, text: 'Sick leave' },
  {
    kind: 'paragraph',
    text: 'Employees on sick leave send a medical certificate after three days. HR records sick leave in the HR system.',
  },
]

function topicsOf(description: string, label: string): string[] {
  const start = description.indexOf(`${label}: `)
  expect(start).toBeGreaterThan(-1)
  return description
    .slice(start + label.length + 2)
    .replace(/\.$/, '')
    .split(', ')
}

describe('describeDocument', () => {
  it('gives the first heading as title, the lead sentences without boilerplate, then key topics', () => {
    const description = describeDocument(doc(LEAVE), 'en') ?? ''
    expect(description.startsWith('Leave Policy. This policy explains how employees request annual leave. ')).toBe(true)
    expect(description).toContain('Unused annual leave can be carried over until March.')
    // Three lead sentences at most; page furniture and legal lines are not prose.
    expect(description).not.toContain('fourth')
    expect(description).not.toMatch(/Page 1|CONFIDENTIAL/)
    const topics = topicsOf(description, 'Key topics')
    expect(topics.length).toBeGreaterThanOrEqual(5)
    expect(topics.length).toBeLessThanOrEqual(8)
    expect(topics).toEqual(expect.arrayContaining(['annual leave', 'sick leave']))
    expect(description.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS)
  })

  it("prefers the document's own title and introduces topics in its language", () => {
    const blocks: Block[] = [
      {
        kind: 'paragraph',
        text:
          'Cette politique décrit comment les salariés demandent leurs congés annuels. Les congés annuels doivent ' +
          'être approuvés par le responsable. Les congés non pris peuvent être reportés en mars.',
      },
    ]
    const description = describeDocument(doc(blocks, 'Politique de congés'), 'fr') ?? ''
    expect(description.startsWith('Politique de congés. Cette politique décrit')).toBe(true)
    expect(topicsOf(description, 'Thèmes clés')).toEqual(expect.arrayContaining(['congés annuels']))
  })

  it('stays within 500 characters for long documents and titles, cutting at a word', () => {
    const text = Array.from(
      { length: 200 },
      (_, i) => `Quarterly revenue report ${i} describes extraordinary performance across international subsidiaries.`,
    ).join(' ')
    const description = describeDocument(doc([{ kind: 'paragraph', text }], 'T'.repeat(400)), 'en') ?? ''
    expect(description.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS)
    expect(description).toContain('…')
    expect(topicsOf(description, 'Key topics').length).toBeGreaterThanOrEqual(5)
  })

  it('takes the key topics of a long document from all of it, not only its start', () => {
    const part = (topic: string, count: number): Block[] =>
      Array.from({ length: count }, (_, i) => ({
        kind: 'paragraph',
        text: `Section ${i} of the ${topic} chapter covers ${topic} monitoring and ${topic} maintenance in detail.`,
      }))
    // About 240,000 characters on herons, then 60,000 on glaciers.
    const blocks = [...part('heron', 3_000), ...part('glacier', 750)]
    const topics = topicsOf(describeDocument(doc(blocks), 'en') ?? '', 'Key topics').map((topic) => topic.toLowerCase())
    expect(topics.some((topic) => topic.includes('heron'))).toBe(true)
    expect(topics.some((topic) => topic.includes('glacier'))).toBe(true)
  })

  it('describes documents made of tables or OCR text by their key topics', () => {
    const description = describeDocument(
      doc([
        {
          kind: 'table',
          header: ['Region', 'Revenue'],
          rows: [
            { rowNumber: 2, cells: ['Europe', '100'] },
            { rowNumber: 3, cells: ['Asia', '200'] },
          ],
        },
      ]),
      'en',
    )
    expect(description).toMatch(/^Key topics: /)
    expect(description).toContain('Europe')
  })

  it('is null when the document has no text', () => {
    expect(describeDocument(doc([]), 'en')).toBeNull()
    expect(describeDocument(doc([{ kind: 'paragraph', text: '  \n ' }]), 'en')).toBeNull()
  })
})

describe('keyPhrases', () => {
  it('ranks recurring terms and phrases, shows written forms, and skips numbers and stop words', () => {
    const phrases = keyPhrases(
      [
        'The NATO summit discussed defence budgets. Defence budgets rose in 2024.',
        'NATO members agreed on defence budgets and cyber security.',
        'Cyber security was the second topic of the NATO summit.',
      ],
      'en',
    )
    expect(phrases[0]).toBe('defence budgets')
    // A recurring phrase stands for its words: NATO is shown within "NATO summit".
    expect(phrases).toEqual(expect.arrayContaining(['cyber security', 'NATO summit']))
    expect(phrases).not.toContain('NATO')
    expect(phrases).not.toContain('2024')
    expect(phrases).not.toContain('the')
    expect(phrases.length).toBeLessThanOrEqual(8)
  })

  it('never offers a function word the stop lists keep ("per") as a topic', () => {
    const phrases = keyPhrases(
      ['Earnings per share rose. Dividends per share rose.', 'Earnings per share and dividends per share.'],
      'en',
    )
    expect(phrases.some((phrase) => phrase.split(' ').includes('per'))).toBe(false)
    expect(phrases).toEqual(expect.arrayContaining(['share']))
  })
})
