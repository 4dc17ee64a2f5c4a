import type { DocumentCard } from '../ports/document-card.js'

/** A stored card; a value that is not one (hand-edited row, older shape) reads as no card rather than failing the read. */
export function parseCard(json: string | null): DocumentCard | null {
  if (json === null) return null
  try {
    const value = JSON.parse(json) as Partial<DocumentCard> | null
    if (!value || typeof value !== 'object') return null
    return {
      title: typeof value.title === 'string' ? value.title : null,
      subjects: Array.isArray(value.subjects) ? value.subjects.filter((s): s is string => typeof s === 'string') : [],
      period: value.period && typeof value.period === 'object' ? value.period : null,
      kind: typeof value.kind === 'string' ? value.kind : null,
    }
  } catch {
    return null
  }
}
