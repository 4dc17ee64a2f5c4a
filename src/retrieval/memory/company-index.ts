import type { DocumentContextRecord, IndexedChunk, LanguageStats } from '../../storage/ports/search.js'
import { idf, lengthNorm } from '../bm25.js'
import { refCode } from '../chunk-ref.js'
import { DocumentContextIndex } from '../context/document-context.js'
import type { DocumentBatch, IndexScoring, ScoredChunk } from './company-index-types.js'
import { kthLargest } from './kth-largest.js'
import { mergeSegments, type Segment, SegmentBuilder } from './segment.js'
import { addTermScores, type TermRun, termRuns } from './segment-scores.js'

/** A document's chunks in the index: a run of consecutive chunk ordinals. */
export interface DocumentEntry {
  readonly ordinal: number
  readonly first: number
  readonly count: number
  /** Chunk count and total length per language. */
  readonly languages: ReadonlyMap<string, { chunkCount: number; totalTerms: number }>
  /** The segment holding its postings (a merge moves them). */
  segment: Segment | undefined
}

/** Segments kept before the smallest are merged. */
const MAX_SEGMENTS = 12

/**
 * The lexical index of one company's PROCESSED documents in typed arrays: per chunk ordinal its id,
 * document and length; per term the postings in a few segments. BM25 is computed exactly as
 * src/retrieval/bm25.ts does (same statistics, same float operations in the same order), so its
 * ranking is the exhaustive one. Changes replace whole documents: their old chunks are marked dead
 * (skipped, dropped at the next merge) and the new ones appended in a new segment.
 */
export class CompanyIndex {
  private chunkIds: string[] = []
  private chunkDocument = new Int32Array(1024)
  private chunkLength = new Int32Array(1024)
  private alive = new Uint8Array(1024)
  private ordinals = 0
  private liveChunks = 0
  private totalTerms = 0
  private readonly documents = new Map<string, DocumentEntry>()
  private documentIds: string[] = []
  private readonly languages = new Map<string, { chunkCount: number; totalTerms: number }>()
  private segments: Segment[] = []
  /** Score of each chunk ordinal during a query (kept between queries: zeroed after use). */
  private scores = new Float64Array(0)
  /** BM25 length normalisation per chunk ordinal, for `normsAverage` over `normsCount` ordinals. */
  private norms: Float64Array | undefined
  private normsAverage = 0
  private normsCount = 0
  private bytesEstimate = 0
  private readonly contexts = new Map<string, DocumentContextRecord>()
  /** Built from `contexts` when first asked for after a change. */
  private contextIndex: DocumentContextIndex | undefined

  /** The change version the index reflects. */
  version: number

  constructor(version: number) {
    this.version = version
  }

  /** Approximate heap size (typed arrays, chunk ids, term maps): what the memory budget counts. */
  get bytes(): number {
    return this.bytesEstimate
  }

  get chunkCount(): number {
    return this.liveChunks
  }

  /** Chunk count and total length per language of the searchable chunks, sorted by language. */
  corpus(): LanguageStats[] {
    return [...this.languages]
      .filter(([, entry]) => entry.chunkCount > 0)
      .map(([language, entry]) => ({ language, ...entry }))
      .sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0))
  }

  /**
   * Makes the index hold exactly the given chunks for the batch's documents: their previous chunks
   * are removed, the new ones added (a document without chunks in the batch is no longer searchable).
   */
  apply(batch: DocumentBatch): void {
    for (const id of batch.documentIds) this.remove(id)
    this.setContexts(batch.documentIds, batch.contexts)
    const { byChunk, added } = this.addChunks(batch.chunks)
    const builder = new SegmentBuilder()
    for (const posting of batch.postings) {
      const ordinal = byChunk.get(refCode(posting.documentKey, posting.chunkIdx))
      // A posting of a chunk read in another state (changed between the two reads): a later
      // change record reloads the document.
      if (ordinal !== undefined) builder.add(posting.term, ordinal, posting.tf)
    }
    this.attach(builder.size > 0 ? builder.build(byChunk.size) : undefined, added)
  }

  /**
   * Adds the chunks (grouped by document, ordered by idx) of documents replacing any they had;
   * returns each chunk's ordinal by its ref code (chunk-ref.ts) and the documents' entries, for
   * `attach`.
   */
  addChunks(chunks: readonly IndexedChunk[]): { byChunk: Map<number, number>; added: DocumentEntry[] } {
    const byChunk = new Map<number, number>()
    const added: DocumentEntry[] = []
    let at = 0
    while (at < chunks.length) {
      const documentId = (chunks[at] as IndexedChunk).documentId
      // A document met twice (not expected) replaces itself.
      this.remove(documentId)
      const first = this.ordinals
      const documentOrdinal = this.documentIds.length
      const languages = new Map<string, { chunkCount: number; totalTerms: number }>()
      for (; at < chunks.length && (chunks[at] as IndexedChunk).documentId === documentId; at++) {
        const chunk = chunks[at] as IndexedChunk
        byChunk.set(
          refCode(chunk.documentKey, chunk.chunkIdx),
          this.appendChunk(chunk.chunkId, documentOrdinal, chunk.termCount),
        )
        for (const stats of [languages, this.languages]) {
          const entry = stats.get(chunk.language) ?? { chunkCount: 0, totalTerms: 0 }
          entry.chunkCount += 1
          entry.totalTerms += chunk.termCount
          stats.set(chunk.language, entry)
        }
        this.liveChunks += 1
        this.totalTerms += chunk.termCount
      }
      const entry: DocumentEntry = {
        ordinal: documentOrdinal,
        first,
        count: this.ordinals - first,
        languages,
        segment: undefined,
      }
      this.documentIds.push(documentId)
      this.documents.set(documentId, entry)
      added.push(entry)
    }
    return { byChunk, added }
  }

  /** Replaces the context of the documents `documentIds` by `contexts` (those without one have none). */
  setContexts(documentIds: readonly string[], contexts: readonly DocumentContextRecord[]): void {
    for (const id of documentIds) this.contexts.delete(id)
    for (const record of contexts) this.contexts.set(record.documentId, record)
    this.contextIndex = undefined
  }

  /** The context index of the searchable documents, as of the last change. */
  context(): DocumentContextIndex {
    if (!this.contextIndex) {
      const records = [...this.contexts.values()].filter((record) => this.documents.has(record.documentId))
      records.sort((a, b) => (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0))
      this.contextIndex = new DocumentContextIndex(records)
    }
    return this.contextIndex
  }

  /** Adds the segment holding the postings of the `added` documents' chunks, then compacts. */
  attach(segment: Segment | undefined, added: readonly DocumentEntry[]): void {
    if (segment && segment.ordinals.length > 0) {
      this.segments.push(segment)
      for (const entry of added) entry.segment = segment
    }
    this.norms = undefined
    this.maintain()
    this.measure()
  }

  private appendChunk(chunkId: string, documentOrdinal: number, length: number): number {
    const ordinal = this.ordinals++
    if (ordinal >= this.alive.length) {
      const size = this.alive.length * 2
      const documents = new Int32Array(size)
      documents.set(this.chunkDocument)
      this.chunkDocument = documents
      const lengths = new Int32Array(size)
      lengths.set(this.chunkLength)
      this.chunkLength = lengths
      const alive = new Uint8Array(size)
      alive.set(this.alive)
      this.alive = alive
    }
    this.chunkIds[ordinal] = chunkId
    this.chunkDocument[ordinal] = documentOrdinal
    this.chunkLength[ordinal] = length
    this.alive[ordinal] = 1
    return ordinal
  }

  private remove(documentId: string): void {
    const entry = this.documents.get(documentId)
    if (!entry) return
    this.documents.delete(documentId)
    for (let ordinal = entry.first; ordinal < entry.first + entry.count; ordinal++) {
      this.alive[ordinal] = 0
      this.liveChunks -= 1
      this.totalTerms -= this.chunkLength[ordinal] as number
    }
    for (const [language, stats] of entry.languages) {
      const total = this.languages.get(language)
      if (!total) continue
      total.chunkCount -= stats.chunkCount
      total.totalTerms -= stats.totalTerms
      if (total.chunkCount <= 0) this.languages.delete(language)
    }
    if (entry.segment) entry.segment.dead += entry.count
  }

  /**
   * Keeps the index compact: merges the smallest segments when there are too many, rewrites a
   * segment that is mostly dead, and renumbers the chunks once most ordinals are dead.
   */
  private maintain(): void {
    if (this.ordinals - this.liveChunks > Math.max(1024, this.liveChunks)) {
      this.renumber()
      return
    }
    const alive = (ordinal: number) => this.alive[ordinal] === 1
    this.segments = this.segments.map((segment) =>
      segment.dead * 2 > segment.chunkCount ? this.replaceSegments([segment], alive) : segment,
    )
    while (this.segments.length > MAX_SEGMENTS) {
      const [a, b] = [...this.segments].sort((x, y) => x.ordinals.length - y.ordinals.length)
      if (!a || !b) break
      const merged = this.replaceSegments([a, b], alive)
      this.segments = [...this.segments.filter((s) => s !== a && s !== b), merged]
    }
    this.segments = this.segments.filter((segment) => segment.ordinals.length > 0)
  }

  /** A segment with the live postings of `old`; the documents that pointed at `old` point at it. */
  private replaceSegments(old: readonly Segment[], keep: (ordinal: number) => boolean): Segment {
    const merged = mergeSegments(old, keep)
    for (const entry of this.documents.values()) {
      if (entry.segment && old.includes(entry.segment)) entry.segment = merged
    }
    return merged
  }

  /** Gives the live chunks consecutive ordinals again and drops every dead posting. */
  private renumber(): void {
    const next = new Int32Array(this.ordinals).fill(-1)
    const size = Math.max(1024, this.liveChunks)
    const chunkIds: string[] = []
    const chunkDocument = new Int32Array(size)
    const chunkLength = new Int32Array(size)
    const alive = new Uint8Array(size)
    const documentIds: string[] = []
    let count = 0
    const entries = [...this.documents].sort((a, b) => a[1].first - b[1].first)
    for (const [id, entry] of entries) {
      const first = count
      for (let ordinal = entry.first; ordinal < entry.first + entry.count; ordinal++) {
        next[ordinal] = count
        chunkIds[count] = this.chunkIds[ordinal] as string
        chunkDocument[count] = documentIds.length
        chunkLength[count] = this.chunkLength[ordinal] as number
        alive[count] = 1
        count++
      }
      this.documents.set(id, { ...entry, ordinal: documentIds.length, first, segment: undefined })
      documentIds.push(id)
    }
    const merged = mergeSegments(
      this.segments,
      (ordinal) => (next[ordinal] as number) >= 0,
      (ordinal) => next[ordinal] as number,
    )
    for (const entry of this.documents.values()) entry.segment = merged
    this.segments = merged.ordinals.length > 0 ? [merged] : []
    this.chunkIds = chunkIds
    this.chunkDocument = chunkDocument
    this.chunkLength = chunkLength
    this.alive = alive
    this.documentIds = documentIds
    this.ordinals = count
    this.scores = new Float64Array(0)
    this.norms = undefined
  }

  private measure(): void {
    let bytes = this.chunkDocument.byteLength + this.chunkLength.byteLength + this.alive.byteLength
    // Scores and norms (Float64Array) as large as the chunk arrays once queried.
    bytes += this.alive.length * 16
    // Chunk ids: a 36-character string and an array slot each.
    bytes += this.chunkIds.length * 100
    bytes += this.documents.size * 200
    for (const segment of this.segments) bytes += segment.bytes
    this.bytesEstimate = bytes
  }

  /**
   * BM25 of every chunk of the scope for the distinct `terms` (statistics over all searchable
   * chunks, as the exhaustive scorer), plus its document's boost for the chunks that match at all
   * (`boosts`, by document id), and the chunks that can be in the top `limit`.
   * `scope` null is every document.
   */
  score(
    terms: readonly string[],
    scope: readonly string[] | null,
    limit: number,
    boosts?: ReadonlyMap<string, number>,
  ): IndexScoring {
    const chunkCount = this.liveChunks
    const averageLength = chunkCount > 0 ? this.totalTerms / chunkCount : 0
    const norms = this.normsFor(averageLength > 0 ? averageLength : 1)
    // Which chunk ordinals may score: the live ones, of the scope's documents. Null: every ordinal.
    let eligible: Uint8Array | null = this.ordinals > this.liveChunks ? this.alive : null
    if (scope) {
      eligible = new Uint8Array(this.alive.length)
      for (const id of scope) {
        const entry = this.documents.get(id)
        if (entry) eligible.fill(1, entry.first, entry.first + entry.count)
      }
    }
    // Lists of each term in each segment, and document frequencies over live chunks.
    const lists: TermRun[][] = []
    const weights: number[] = []
    const frequencies: number[] = []
    for (const term of terms) {
      const { runs, df } = termRuns(this.segments, term, this.alive)
      lists.push(runs)
      frequencies.push(df)
      weights.push(idf(chunkCount, df))
    }
    if (this.scores.length < this.alive.length) this.scores = new Float64Array(this.alive.length)
    const scores = this.scores
    // Term by term, so each chunk's score sums its contributions in term order (as rankWithWeights).
    for (let t = 0; t < terms.length; t++) addTermScores(scores, lists[t] ?? [], weights[t] as number, norms, eligible)
    // Every contribution is positive: the chunks met are those with a score above 0.
    if (boosts && boosts.size > 0) {
      const byDocument = new Float64Array(this.documentIds.length)
      for (const [id, boost] of boosts) {
        const entry = this.documents.get(id)
        if (entry) byDocument[entry.ordinal] = boost
      }
      const chunkDocument = this.chunkDocument
      for (let ordinal = 0; ordinal < this.ordinals; ordinal++) {
        const score = scores[ordinal] as number
        if (score !== 0) scores[ordinal] = score + (byDocument[chunkDocument[ordinal] as number] as number)
      }
    }
    const cut = kthLargest(scores, this.ordinals, limit)
    const contenders: ScoredChunk[] = []
    const chunkDocument = this.chunkDocument
    for (let ordinal = 0; ordinal < this.ordinals; ordinal++) {
      const score = scores[ordinal] as number
      if (score === 0) continue
      if (score >= cut) {
        contenders.push({
          chunkId: this.chunkIds[ordinal] as string,
          documentId: this.documentIds[chunkDocument[ordinal] as number] as string,
          score,
        })
      }
      scores[ordinal] = 0
    }
    return { weights, frequencies, contenders }
  }

  /** k1 × (1 − b + b × length / average) per chunk ordinal, kept while the average is the same. */
  private normsFor(averageLength: number): Float64Array {
    if (this.norms && this.normsAverage === averageLength && this.normsCount === this.ordinals) return this.norms
    const norms = new Float64Array(this.alive.length)
    for (let ordinal = 0; ordinal < this.ordinals; ordinal++) {
      norms[ordinal] = lengthNorm(this.chunkLength[ordinal] as number, averageLength)
    }
    this.norms = norms
    this.normsAverage = averageLength
    this.normsCount = this.ordinals
    return norms
  }
}
