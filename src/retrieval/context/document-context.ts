import type { CardPeriod } from '../../storage/ports/document-card.js'
import type { DocumentContextRecord } from '../../storage/ports/search.js'
import { type ContextField, contextTerms, FIELD_WEIGHTS, IDENTIFYING_FIELDS } from './context-terms.js'

/** How strongly a question's words point at one document through its context. */
export interface ContextMatch {
  /**
   * The question's terms found in the document's context (subjects, file name, folders,
   * kind), each weighted by its inverse document frequency among the contexts and by its field:
   * a name only this document carries weighs a lot, a word every document shares nothing.
   */
  readonly weight: number
  /** `weight` as a share in [0, 1] of the weight of the question's terms found in any document's context. */
  readonly share: number
}

interface Entry {
  readonly record: DocumentContextRecord
  /** Context term → the field it counts in. */
  readonly terms: ReadonlyMap<string, ContextField>
}

/**
 * The documents' context as a small index of its own (docs/decisions.md "Document context in
 * retrieval"): one entry per searchable document with the terms of its card and path, and
 * document frequencies over those entries, so that a question's words are weighed by how well
 * they tell documents apart (a company's name in a few cards counts; a folder every document
 * shares counts for nothing). Built from the records alone: the same on every store.
 */
export class DocumentContextIndex {
  private readonly entries = new Map<string, Entry>()
  private readonly frequencies = new Map<string, number>()

  constructor(records: readonly DocumentContextRecord[]) {
    for (const record of records) {
      const terms = contextTerms(record)
      this.entries.set(record.documentId, { record, terms })
      for (const term of terms.keys()) this.frequencies.set(term, (this.frequencies.get(term) ?? 0) + 1)
    }
  }

  /** Number of documents. */
  get size(): number {
    return this.entries.size
  }

  record(documentId: string): DocumentContextRecord | undefined {
    return this.entries.get(documentId)?.record
  }

  /** Every document's record, in id order. */
  records(): DocumentContextRecord[] {
    return [...this.entries.values()].map((entry) => entry.record)
  }

  /** The period of a document's card, if it has one. */
  period(documentId: string): CardPeriod | null {
    return this.entries.get(documentId)?.record.card?.period ?? null
  }

  /**
   * idf of a context term over the documents (Robertson–Spärck Jones with +1, as BM25's), 0 for a
   * term no document's context has.
   */
  weight(term: string): number {
    const df = this.frequencies.get(term) ?? 0
    if (df === 0) return 0
    const n = this.entries.size
    return Math.log(1 + (n - df + 0.5) / (df + 0.5))
  }

  /**
   * The documents of `scope` (null: every document) that a name is the subject, file or folder of:
   * those whose identifying fields carry the most of the name's weight, when that is at least half
   * of it (`Lockheed Martin` is not `Martin Marietta`); empty when none does.
   */
  documentsNamed(terms: readonly string[], scope: readonly string[] | null): string[] {
    const weights = [...new Set(terms)].map((term) => [term, this.weight(term)] as const).filter(([, w]) => w > 0)
    const total = weights.reduce((sum, [, weight]) => sum + weight, 0)
    if (total === 0) return []
    const scored: Array<[string, number]> = []
    for (const id of scope ?? this.entries.keys()) {
      const entry = this.entries.get(id)
      if (!entry) continue
      let matched = 0
      for (const [term, weight] of weights) {
        const field = entry.terms.get(term)
        if (field && IDENTIFYING_FIELDS.has(field)) matched += weight
      }
      if (matched > 0) scored.push([id, matched])
    }
    const best = Math.max(0, ...scored.map(([, matched]) => matched))
    if (best < total / 2) return []
    return scored.filter(([, matched]) => matched >= best * (1 - 1e-9)).map(([id]) => id)
  }

  /**
   * How the question's distinct analysed `terms` match each document of `scope` (null: every
   * document); documents that match nothing are left out.
   */
  matches(terms: readonly string[], scope: readonly string[] | null): Map<string, ContextMatch> {
    const weights = new Map<string, number>()
    for (const term of new Set(terms)) {
      const weight = this.weight(term)
      if (weight > 0) weights.set(term, weight)
    }
    const found = new Map<string, ContextMatch>()
    let total = 0
    for (const weight of weights.values()) total += weight
    if (total === 0) return found
    const ids = scope ?? [...this.entries.keys()]
    for (const id of ids) {
      const entry = this.entries.get(id)
      if (!entry) continue
      let matched = 0
      for (const [term, weight] of weights) {
        const field = entry.terms.get(term)
        if (field) matched += weight * FIELD_WEIGHTS[field]
      }
      if (matched > 0) found.set(id, { weight: matched, share: matched / total })
    }
    return found
  }
}
