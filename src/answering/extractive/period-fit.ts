import type { DocumentSpan } from '../../retrieval/context/span.js'

/**
 * How well a document's period fits the period a question names (1 for a perfect fit, half for a
 * document of another period): the annual report of `FY2021` is quoted before the next year's,
 * which repeats its figures as comparatives. Every document fits alike when the question names no
 * period, or spans several.
 */
export function periodFit(span: DocumentSpan | undefined): (documentId: string) => number {
  if (!span || span.spread || span.periodScores.size === 0) return () => 1
  return (documentId) => 0.5 + 0.5 * Math.min(1, span.periodScores.get(documentId) ?? 0)
}
