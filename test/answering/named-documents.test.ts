import { describe, expect, it } from 'vitest'
import { namedDocuments } from '../../src/domain/chats/conversation.js'
import { type DocumentSpan, EMPTY_SPAN } from '../../src/retrieval/context/span.js'
import { questionNames } from '../../src/text/names.js'

const globex = { name: questionNames("What were Globex's sales?", 'en')[0] as never, documents: ['q1', 'q2', 'q3'] }

describe('the documents a question names, searched one by one besides the whole scope', () => {
  it('searches each document of a trend or a comparison, eight at most', () => {
    const documents = Array.from({ length: 10 }, (_, index) => `q${index + 1}`)
    expect(namedDocuments({ ...EMPTY_SPAN, documents, spread: true, subjects: [globex] })).toEqual(
      documents.slice(0, 8),
    )
  })

  it("searches the report of the period asked for, the best fit first, or a subject's only document", () => {
    const period: DocumentSpan = {
      ...EMPTY_SPAN,
      documents: ['q3', 'annual'],
      periodScores: new Map([
        ['q3', 1],
        ['annual', 0.5],
      ]),
      subjects: [globex],
    }
    expect(namedDocuments(period)).toEqual(['q3'])
    expect(namedDocuments({ ...EMPTY_SPAN, documents: ['only'], subjects: [globex] })).toEqual(['only'])
  })

  it('searches none apart when the question names a subject of several documents and no period, or nothing', () => {
    expect(namedDocuments({ ...EMPTY_SPAN, documents: ['q1', 'q2', 'q3'], subjects: [globex] })).toEqual([])
    expect(namedDocuments(EMPTY_SPAN)).toEqual([])
  })
})
