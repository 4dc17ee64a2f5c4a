import { describe, expect, it } from 'vitest'
import { BM25_B, BM25_K1, idf, rankBm25 } from '../../src/retrieval/bm25.js'
import { queryLanguage } from '../../src/retrieval/lexical-retriever.js'
import type { ScoredPosting } from '../../src/storage/ports/search.js'

function posting(term: string, chunk: string, tf: number, termCount: number, objectName = `/${chunk}.md`, idx = 0) {
  return {
    term,
    tf,
    chunkId: chunk,
    documentId: `doc-${objectName}`,
    termCount,
    objectName,
    idx,
  } satisfies ScoredPosting
}

describe('BM25 ranking', () => {
  it('computes the Okapi score with the +1 idf', () => {
    expect(idf(10, 2)).toBeCloseTo(Math.log(1 + 8.5 / 2.5), 15)
    const stats = { chunkCount: 10, averageLength: 8 }
    const { ranked, maxScore } = rankBm25(['leav'], [posting('leav', 'a', 2, 4)], stats, () => true, 10)
    const w = idf(10, 1)
    const expected = (w * 2 * (BM25_K1 + 1)) / (2 + BM25_K1 * (1 - BM25_B + (BM25_B * 4) / 8))
    expect(ranked).toHaveLength(1)
    expect(ranked[0]?.score).toBe(expected)
    expect(maxScore).toBe(w * (BM25_K1 + 1))
  })

  it('gives the same scores and order whatever order postings arrive in', () => {
    const postings = [
      posting('a', 'c1', 1, 10, '/x.md', 0),
      posting('b', 'c1', 3, 10, '/x.md', 0),
      posting('c', 'c1', 1, 10, '/x.md', 0),
      posting('a', 'c2', 2, 7, '/y.md', 0),
      posting('c', 'c3', 1, 30, '/z.md', 1),
      posting('b', 'c4', 1, 12, '/z.md', 0),
    ]
    const stats = { chunkCount: 50, averageLength: 11.3 }
    const forward = rankBm25(['a', 'b', 'c'], postings, stats, () => true, 10)
    const backward = rankBm25(['a', 'b', 'c'], [...postings].reverse(), stats, () => true, 10)
    expect(backward).toEqual(forward)
    expect(forward.ranked.map((r) => r.chunkId)[0]).toBe('c1')
  })

  it('breaks ties by object_name then idx, and counts df outside the scope', () => {
    const postings = [
      posting('t', 'b0', 1, 5, '/b.md', 0),
      posting('t', 'a1', 1, 5, '/a.md', 1),
      posting('t', 'a0', 1, 5, '/a.md', 0),
      posting('t', 'out', 1, 5, '/out.md', 0),
    ]
    const stats = { chunkCount: 4, averageLength: 5 }
    const scoped = rankBm25(['t'], postings, stats, (id) => id !== 'doc-/out.md', 10)
    expect(scoped.ranked.map((r) => r.chunkId)).toEqual(['a0', 'a1', 'b0'])
    // df is 4 (the out-of-scope posting counts), so idf is that of 4 of 4 chunks.
    const expected = (idf(4, 4) * (BM25_K1 + 1)) / (1 + BM25_K1)
    expect(scoped.ranked[0]?.score).toBe(expected)
    expect(rankBm25(['t'], postings, stats, () => true, 2).ranked).toHaveLength(2)
  })
})

describe('query language', () => {
  const corpus = [
    { language: 'en', chunkCount: 10, totalTerms: 100 },
    { language: 'fr', chunkCount: 3, totalTerms: 30 },
  ]
  it('keeps a detected language the corpus has, else takes the corpus majority', () => {
    expect(queryLanguage('les congés payés des salariés en France', corpus)).toBe('fr')
    expect(queryLanguage('cafés', corpus)).toBe('en')
    expect(queryLanguage('cafés', corpus, 'de')).toBe('de')
    expect(queryLanguage('the annual leave', [])).toBe('en')
  })

  it('takes the corpus majority when the detected language is a sliver of the corpus', () => {
    const mostlyEnglish = [
      { language: 'en', chunkCount: 3000, totalTerms: 90_000 },
      { language: 'it', chunkCount: 12, totalTerms: 300 },
    ]
    // Detected as Italian, a short English query is analysed as the corpus's English.
    expect(queryLanguage('Parallel processors in information retrieval', mostlyEnglish)).toBe('en')
    expect(queryLanguage('i processori paralleli nel recupero delle informazioni', mostlyEnglish)).toBe('en')
    expect(
      queryLanguage(
        'i processori paralleli nel recupero delle informazioni',
        corpus.concat(mostlyEnglish.slice(1).map((entry) => ({ ...entry, chunkCount: 5 }))),
      ),
    ).toBe('it')
  })
})
