import { describe, expect, it } from 'vitest'
import { decodePostings, encodePostings, withPostings } from '../../src/ingestion/pipeline/index-document.js'
import type { Posting } from '../../src/storage/ports/chunks.js'
import { analyze } from '../../src/text/analysis.js'

const asMap = (postings: readonly Posting[]) => new Map(postings.map(({ term, tf }) => [term, tf]))

/**
 * The postings of a text by their definition: its terms counted, in order of first occurrence;
 * its length is its terms that are not numbers.
 */
function postingsOf(text: string): { postings: Posting[]; termCount: number } {
  const terms = analyze(text, 'en')
  const counts = new Map<string, number>()
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
  const words = terms.filter((term) => !/^\d/.test(term))
  return { postings: [...counts].map(([term, tf]) => ({ term, tf })), termCount: words.length }
}

describe('postings carried from the processing thread as one string per chunk', () => {
  it('decodes to the same postings, in the same order, whatever the terms hold', () => {
    const postings = [
      { term: 'leave', tf: 3 },
      { term: '10:30', tf: 1 },
      { term: 'ünïcödé', tf: 12 },
      { term: '東京', tf: 2 },
    ]
    expect(decodePostings(encodePostings(asMap(postings)))).toEqual(postings)
    expect(decodePostings(encodePostings(new Map()))).toEqual([])
  })

  it('matches the postings computed from the text', () => {
    const text = 'Annual leave: 25 days. Leave requests at 10:30 go to the line manager; leave carries over.'
    const draft = withPostings({ idx: 0, text, tokenCount: 20, pageNumber: null, rowIdx: null, metadata: {} }, 'en')
    const expected = postingsOf(text)
    expect(draft.termCount).toBe(expected.termCount)
    expect(decodePostings(draft.postings ?? '')).toEqual(expected.postings)
  })

  it("counts a table chunk's title twice, and its length once", () => {
    const text = [
      'Globex Corporation Consolidated Statements of Cash Flows (in thousands)',
      '| Year Ended December 31, 2020 | Year Ended December 31, 2019',
      'Net cash provided by operating activities | 381,603 | 465,699',
    ].join('\n')
    const table = { idx: 0, text, tokenCount: 40, pageNumber: '3', rowIdx: null, metadata: { category: 'table' } }
    const draft = withPostings(table, 'en')
    const plain = postingsOf(text)
    expect(draft.termCount).toBe(plain.termCount)
    const tf = asMap(decodePostings(draft.postings ?? ''))
    const plainTf = asMap(plain.postings)
    for (const term of analyze(text.split('\n')[0] as string, 'en')) {
      expect(tf.get(term), term).toBe((plainTf.get(term) ?? 0) + 1)
    }
    // Words of the header and the rows only, once: `oper` is in no title.
    expect(tf.get('oper')).toBe(plainTf.get('oper'))
    expect(tf.get('decemb')).toBe(plainTf.get('decemb'))
  })
})
