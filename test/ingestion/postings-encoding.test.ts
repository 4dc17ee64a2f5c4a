import { describe, expect, it } from 'vitest'
import { decodePostings, encodePostings, postingsOf, withPostings } from '../../src/ingestion/index-document.js'

describe('postings carried from the processing thread as one string per chunk', () => {
  it('decodes to the same postings, in the same order, whatever the terms hold', () => {
    const postings = [
      { term: 'leave', tf: 3 },
      { term: '10:30', tf: 1 },
      { term: 'ünïcödé', tf: 12 },
      { term: '東京', tf: 2 },
    ]
    expect(decodePostings(encodePostings(postings))).toEqual(postings)
    expect(decodePostings(encodePostings([]))).toEqual([])
  })

  it('matches the postings computed from the text', () => {
    const text = 'Annual leave: 25 days. Leave requests at 10:30 go to the line manager; leave carries over.'
    const draft = withPostings({ idx: 0, text, tokenCount: 20, pageNumber: null, rowIdx: null, metadata: {} }, 'en')
    const expected = postingsOf(text, 'en')
    expect(draft.termCount).toBe(expected.termCount)
    expect(decodePostings(draft.postings ?? '')).toEqual(expected.postings)
  })
})
