import type {
  ChunkHitRecord,
  ImpactCursor,
  IndexedDocument,
  LanguageStats,
  PostingsReader,
} from '../storage/ports/search.js'
import { analyze, detectLanguage } from '../text/analysis.js'
import { periodWords } from '../text/periods/period-words.js'
import {
  BM25_K1,
  compareRanked,
  idf,
  lengthNorm,
  maxScoreOf,
  type RankedChunk,
  rankWithWeights,
  tfBound,
} from './bm25.js'
import { refCode, refOfCode } from './chunk-ref.js'
import { contextBoosts } from './context/boosts.js'
import { DocumentContextIndex } from './context/document-context.js'
import { scopedSearch, spanWithMentions } from './context/mentions.js'
import { type DocumentSpan, EMPTY_SPAN } from './context/span.js'
import { retrievedChunk } from './retrieved-chunk.js'
import type { AnalysedQuery, ExplainingRetriever, RetrievalResult, RetrievedChunk, SearchQuery } from './types.js'

/**
 * Least share of the corpus's chunks a detected language must have for a query to be analysed in
 * it. Short queries are often detected wrongly ("Parallel processors in information retrieval"
 * reads as Italian; 13 of the 64 CACM queries are detected as another language than English), and
 * a handful of chunks detected as that language (a title, a name) must not decide.
 */
const MIN_LANGUAGE_SHARE = 0.1

/**
 * The analysis language of a query: the one asked for; else the detected one when a tenth of the
 * corpus's chunks at least are in it; else the corpus language with the most chunks. Terms
 * stemmed for a language the corpus (nearly) does not have would match (nearly) nothing.
 */
export function queryLanguage(text: string, corpus: readonly LanguageStats[], requested?: string): string {
  if (requested) return requested
  const detected = detectLanguage(text)
  if (corpus.length === 0) return detected
  const total = corpus.reduce((sum, entry) => sum + entry.chunkCount, 0)
  const own = corpus.find((entry) => entry.language === detected)?.chunkCount ?? 0
  if (own > 0 && own >= total * MIN_LANGUAGE_SHARE) return detected
  let best = corpus[0] as LanguageStats
  for (const entry of corpus) {
    if (entry.chunkCount > best.chunkCount || (entry.chunkCount === best.chunkCount && entry.language < best.language))
      best = entry
  }
  return best.language
}

/** Distinct terms of a query in first-seen order, without the words that only write its periods (periodWords). */
export function queryTerms(text: string, language: string): string[] {
  const notation = periodWords(text, language)
  return [...new Set(analyze(text, language))].filter((term) => !notation.has(term))
}

/** Chunks in scope up to which a scoped search reads all their postings instead of the impact lists. */
const EXHAUSTIVE_CHUNKS = 20_000

/** Chunk count and total length per language of the searchable documents, by language. */
export function corpusOf(documents: readonly IndexedDocument[]): LanguageStats[] {
  const byLanguage = new Map<string, { chunkCount: number; totalTerms: number }>()
  for (const document of documents) {
    if (!document.searchable) continue
    const entry = byLanguage.get(document.language) ?? { chunkCount: 0, totalTerms: 0 }
    entry.chunkCount += document.chunkCount
    entry.totalTerms += document.totalTerms
    byLanguage.set(document.language, entry)
  }
  return [...byLanguage]
    .map(([language, entry]) => ({ language, ...entry }))
    .sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0))
}

/** Knobs for tests: both paths give the same ranking whatever the values. */
export interface LexicalTuning {
  /** Chunks in scope up to which a scoped search reads all their postings (default 20,000). */
  readonly exhaustiveChunks?: number
  /** Blocks of postings per page of a term's list (default 1024). */
  readonly pageSize?: number
}

/** Blocks of postings per page of a term's list (about 9 postings a block in the financebench filings). */
const PAGE = 1024
/** Cost of looking a posting up by key, in postings read in order (when to stop reading lists). */
const LOOKUP_COST = 8

interface TermList {
  readonly index: number
  readonly term: string
  readonly weight: number
  /** Postings not read yet (from the document frequency; which list is the cheapest). */
  remaining: number
  after: ImpactCursor | null
  /** Largest term-frequency part a posting not read yet can have; 0 once the list is read. */
  bound: number
}

/** The k-th largest value (1-based) of `values`, which it reorders. */
function quickKth(values: number[], k: number): number {
  let low = 0
  let high = values.length - 1
  const target = k - 1
  while (low < high) {
    const pivot = values[(low + high) >> 1] as number
    let i = low
    let j = high
    while (i <= j) {
      while ((values[i] as number) > pivot) i++
      while ((values[j] as number) < pivot) j--
      if (i <= j) {
        const swap = values[i] as number
        values[i] = values[j] as number
        values[j] = swap
        i++
        j--
      }
    }
    if (target <= j) high = j
    else if (target >= i) low = i
    else break
  }
  return values[target] as number
}

/**
 * BM25 over the lexical index, scored in JavaScript so the ranking is identical on SQLite and
 * PostgreSQL. Statistics (N, average chunk length, document frequencies) cover all the company's
 * PROCESSED chunks, whatever the scope: a chunk's score does not change with the bot asking, and a
 * scope of a few documents does not make idf meaningless. They are kept at write time
 * (`index_documents`, `term_stats`), so a query does not re-read the corpus.
 *
 * The top k is exact without reading every posting (threshold algorithm): each term's postings
 * are read best impact first, every chunk met is scored exactly, and reading stops once the k-th
 * score is above what any chunk not met yet could reach. A small scope reads its chunks' postings.
 */
export class LexicalRetriever implements ExplainingRetriever {
  constructor(
    private readonly repository: PostingsReader,
    private readonly tuning: LexicalTuning = {},
  ) {}

  async search(companyId: string, query: SearchQuery): Promise<RetrievedChunk[]> {
    return (await this.retrieve(companyId, query)).chunks
  }

  async documentContext(companyId: string): Promise<DocumentContextIndex> {
    return new DocumentContextIndex(await this.repository.documentContexts(companyId))
  }

  async documentSpan(companyId: string, text: string, scope: readonly string[] | null): Promise<DocumentSpan> {
    const language = queryLanguage(text, corpusOf(await this.repository.indexedDocuments(companyId)))
    return spanWithMentions(
      await this.documentContext(companyId),
      text,
      language,
      scope,
      scopedSearch(this, companyId, language),
    )
  }

  async retrieve(companyId: string, query: SearchQuery): Promise<RetrievalResult> {
    const repository = this.repository
    const documents = await repository.indexedDocuments(companyId)
    const corpus = corpusOf(documents)
    const language = queryLanguage(query.text, corpus, query.language)
    const terms = queryTerms(query.text, language)
    const scope = query.scope.documentIds
    if (terms.length === 0 || scope?.length === 0 || query.limit <= 0 || corpus.length === 0) {
      return { query: { terms, language, weights: [], frequencies: [] }, chunks: [], span: query.span ?? EMPTY_SPAN }
    }

    const chunkCount = corpus.reduce((sum, entry) => sum + entry.chunkCount, 0)
    const totalTerms = corpus.reduce((sum, entry) => sum + entry.totalTerms, 0)
    const averageLength = chunkCount > 0 ? totalTerms / chunkCount : 0
    const excluded = [...new Set(documents.filter((d) => !d.searchable).map((d) => d.documentId))]
    const frequencies = await repository.documentFrequencies(companyId, terms, excluded)
    const weights = terms.map((term) => idf(chunkCount, frequencies.get(term) ?? 0))
    const analysed: AnalysedQuery = {
      terms,
      language,
      weights,
      frequencies: terms.map((term) => frequencies.get(term) ?? 0),
    }
    const inScope = scope ? new Set(scope) : undefined
    const accept = (documentId: string) => !inScope || inScope.has(documentId)
    const maxScore = maxScoreOf(weights)
    const context = await this.documentContext(companyId)
    const span =
      query.span ??
      (await spanWithMentions(context, query.text, language, scope, scopedSearch(this, companyId, language)))
    const boosts = contextBoosts(context, { terms, scope, span })
    const boostOf = (documentId: string) => boosts.get(documentId) ?? 0

    let ranked: RankedChunk[]
    let rows: Map<string, ChunkHitRecord>
    const scoped = inScope ? documents.filter((d) => d.searchable && inScope.has(d.documentId)) : undefined
    if (
      scoped &&
      scoped.reduce((sum, d) => sum + d.chunkCount, 0) <= (this.tuning.exhaustiveChunks ?? EXHAUSTIVE_CHUNKS)
    ) {
      const ids = [...new Set(scoped.map((d) => d.documentId))]
      const postings = await repository.postingsOfDocuments(companyId, ids, terms)
      ranked = rankWithWeights(terms, weights, postings, averageLength, accept, query.limit, boostOf).ranked
      rows = new Map(
        (
          await repository.chunksByIds(
            companyId,
            ranked.map((entry) => entry.chunkId),
          )
        ).map((row) => [row.chunkId, row]),
      )
    } else {
      const eligible = new Map(
        documents.filter((d) => d.searchable && accept(d.documentId)).map((d) => [d.documentKey, d.documentId]),
      )
      const top = await this.topK(companyId, terms, weights, frequencies, averageLength, eligible, query.limit, boostOf)
      ranked = top.ranked
      rows = new Map(top.rows.map((row) => [row.chunkId, row]))
    }
    const chunks: RetrievedChunk[] = []
    for (const entry of ranked) {
      const row = rows.get(entry.chunkId)
      // Gone since the postings were read (deleted or reprocessed in between): never a stale hit.
      if (!row) continue
      chunks.push(retrievedChunk(row, entry.score, maxScore > 0 ? Math.min(1, Math.max(0, entry.score / maxScore)) : 0))
    }
    return { query: analysed, chunks, span }
  }

  /**
   * The exact top `limit` by BM25 without reading every posting (MaxScore-style pruning). Lists
   * are read rarest term first, best impact first, in large pages; each posting read stores its
   * exact contribution for its chunk. A chunk not met yet scores at most the sum over unfinished
   * lists of idf × the bound of what is left in them; a chunk met scores at most its known
   * contributions plus that sum over the unfinished lists it was not met in, and at least its known
   * contributions. Once the k-th best lower bound is above the first bound, only the chunks whose
   * upper bound reaches it can be in the top k: their missing postings are looked up and they are
   * ranked exactly (ties included), with contributions summed in term order as rankWithWeights does.
   * A chunk's document boost is part of its score: of a chunk met, it is known; of one not met
   * yet, at most the largest boost.
   */
  private async topK(
    companyId: string,
    terms: readonly string[],
    weights: readonly number[],
    frequencies: ReadonlyMap<string, number>,
    averageLength: number,
    /** Document id by document key, of the documents whose chunks may rank. */
    eligible: ReadonlyMap<number, string>,
    limit: number,
    boostOf: (documentId: string) => number,
  ): Promise<{ ranked: RankedChunk[]; rows: ChunkHitRecord[] }> {
    const lists: TermList[] = terms.map((term, index) => {
      const df = frequencies.get(term) ?? 0
      return { index, term, weight: weights[index] ?? 0, remaining: df, after: null, bound: df > 0 ? BM25_K1 + 1 : 0 }
    })
    const length = averageLength > 0 ? averageLength : 1
    // Contributions per chunk met, by ref code (chunk-ref.ts).
    const met = new Map<number, Float64Array>()
    const below = (x: number) => x * (1 - 1e-9)
    const above = (x: number) => x * (1 + 1e-9) + 1e-12
    const boostOfCode = (code: number) => boostOf(eligible.get(refOfCode(code).documentKey) ?? '')
    let maxBoost = 0
    for (const id of new Set(eligible.values())) maxBoost = Math.max(maxBoost, boostOf(id))

    let candidates: number[] = []
    for (;;) {
      const open = lists.filter((list) => list.bound > 0)
      const unseen = open.reduce((sum, list) => sum + list.weight * list.bound, 0)
      // k-th best lower bound (contributions known so far).
      const known: number[] = []
      for (const [code, contributions] of met)
        known.push(contributions.reduce((sum, c) => sum + c, 0) + boostOfCode(code))
      const theta = known.length >= limit ? below(quickKth(known, limit)) : undefined
      if (open.length === 0 || (theta !== undefined && theta > above(unseen + maxBoost))) {
        const upper = (code: number, contributions: Float64Array) => {
          let bound = 0
          for (const list of lists) {
            const c = contributions[list.index] ?? 0
            bound += c > 0 ? c : list.weight * list.bound
          }
          return above(bound + boostOfCode(code))
        }
        candidates = []
        for (const [code, contributions] of met) {
          if (theta === undefined || upper(code, contributions) >= theta) candidates.push(code)
        }
        const rest = open.reduce((sum, list) => sum + list.remaining, 0)
        if (open.length === 0 || candidates.length * open.length * LOOKUP_COST <= rest) break
      }
      // The rarest unfinished list: the cheapest to finish, the largest idf.
      const next = open.reduce((best, list) => (list.remaining < best.remaining ? list : best))
      const size = Math.min(this.tuning.pageSize ?? PAGE, Math.max(1, next.remaining + 1))
      const page = await this.repository.impactPage(companyId, next.term, next.after, size)
      next.remaining -= page.postings.length
      next.after = page.after
      next.bound = page.after ? tfBound(page.after.impact, averageLength) : 0
      for (const posting of page.postings) {
        if (!eligible.has(posting.documentKey)) continue
        const code = refCode(posting.documentKey, posting.chunkIdx)
        let contributions = met.get(code)
        if (!contributions) {
          contributions = new Float64Array(terms.length)
          met.set(code, contributions)
        }
        const norm = lengthNorm(posting.termCount, length)
        contributions[next.index] = (next.weight * posting.tf * (BM25_K1 + 1)) / (posting.tf + norm)
      }
    }

    // Missing contributions of the candidates, from lists not read to the end.
    const unfinished = lists.filter((list) => list.bound > 0)
    if (unfinished.length > 0) {
      const missing = candidates.filter((code) => unfinished.some((list) => !(met.get(code)?.[list.index] ?? 0)))
      const postings = await this.repository.postingsOfChunks(
        companyId,
        missing.map(refOfCode),
        unfinished.map((list) => list.term),
      )
      for (const posting of postings) {
        const list = unfinished.find((entry) => entry.term === posting.term)
        const contributions = met.get(refCode(posting.documentKey, posting.chunkIdx))
        if (!list || !contributions) continue
        const norm = lengthNorm(posting.termCount, length)
        contributions[list.index] = (list.weight * posting.tf * (BM25_K1 + 1)) / (posting.tf + norm)
      }
    }
    // Exact scores in term order (as rankWithWeights sums them), then the tie-break keys.
    const scored = candidates.map((code) => {
      let score = 0
      for (const contribution of met.get(code) ?? []) if (contribution > 0) score += contribution
      score += boostOfCode(code)
      return { code, score }
    })
    scored.sort((a, b) => b.score - a.score)
    const cut = scored[limit - 1]?.score
    const contenders = cut === undefined ? scored : scored.filter((entry) => entry.score >= cut)
    const rows = await this.repository.chunksByRefs(
      companyId,
      contenders.map((entry) => refOfCode(entry.code)),
    )
    const byChunk = new Map(rows.map((row) => [`${row.documentId}/${row.idx}`, row]))
    const ranked: RankedChunk[] = []
    for (const { code, score } of contenders) {
      const { documentKey, chunkIdx } = refOfCode(code)
      const row = byChunk.get(`${eligible.get(documentKey)}/${chunkIdx}`)
      if (row)
        ranked.push({
          chunkId: row.chunkId,
          documentId: row.documentId,
          objectName: row.objectName,
          idx: row.idx,
          score,
        })
    }
    ranked.sort(compareRanked)
    return { ranked: ranked.slice(0, limit), rows }
  }
}
