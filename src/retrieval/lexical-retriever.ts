import type { LanguageStats, SearchRepository } from '../storage/ports/search.js'
import { analyze, detectLanguage } from './analysis.js'
import { rankBm25 } from './bm25.js'
import type { AnalysedQuery, ExplainingRetriever, RetrievalResult, RetrievedChunk, SearchQuery } from './types.js'

/**
 * The analysis language of a query: the one asked for; else the detected one when the corpus has
 * chunks in it; else the corpus language with the most chunks. Short queries are often detected
 * wrongly ("medical certificate" reads as Portuguese), and terms stemmed for a language the corpus
 * does not have would match nothing.
 */
export function queryLanguage(text: string, corpus: readonly LanguageStats[], requested?: string): string {
  if (requested) return requested
  const detected = detectLanguage(text)
  if (corpus.length === 0 || corpus.some((entry) => entry.language === detected)) return detected
  let best = corpus[0] as LanguageStats
  for (const entry of corpus) {
    if (entry.chunkCount > best.chunkCount || (entry.chunkCount === best.chunkCount && entry.language < best.language))
      best = entry
  }
  return best.language
}

/** Distinct terms of a text in first-seen order. */
export function queryTerms(text: string, language: string): string[] {
  return [...new Set(analyze(text, language))]
}

function filenameOf(objectName: string): string {
  return objectName.slice(objectName.lastIndexOf('/') + 1)
}

/**
 * BM25 over the lexical index, scored in JavaScript from postings read from the store, so the
 * ranking is identical on SQLite and PostgreSQL. Statistics (N, average chunk length, document
 * frequencies) cover all the company's PROCESSED chunks, whatever the scope: a chunk's score does
 * not change with the bot asking, and a scope of a few documents does not make idf meaningless.
 */
export class LexicalRetriever implements ExplainingRetriever {
  constructor(private readonly repository: SearchRepository) {}

  async search(companyId: string, query: SearchQuery): Promise<RetrievedChunk[]> {
    return (await this.retrieve(companyId, query)).chunks
  }

  async retrieve(companyId: string, query: SearchQuery): Promise<RetrievalResult> {
    const repository = this.repository
    const corpus = await repository.corpusStats(companyId)
    const language = queryLanguage(query.text, corpus, query.language)
    const analysed: AnalysedQuery = { terms: queryTerms(query.text, language), language }
    const scope = query.scope.documentIds
    if (analysed.terms.length === 0 || scope?.length === 0 || query.limit <= 0 || corpus.length === 0) {
      return { query: analysed, chunks: [] }
    }

    const chunkCount = corpus.reduce((sum, entry) => sum + entry.chunkCount, 0)
    const totalTerms = corpus.reduce((sum, entry) => sum + entry.totalTerms, 0)
    const postings = await repository.postings(companyId, analysed.terms)
    const inScope = scope ? new Set(scope) : undefined
    const { ranked, maxScore } = rankBm25(
      analysed.terms,
      postings,
      { chunkCount, averageLength: chunkCount > 0 ? totalTerms / chunkCount : 0 },
      (documentId) => !inScope || inScope.has(documentId),
      query.limit,
    )

    const rows = new Map(
      (
        await repository.chunksByIds(
          companyId,
          ranked.map((entry) => entry.chunkId),
        )
      ).map((row) => [row.chunkId, row]),
    )
    const chunks: RetrievedChunk[] = []
    for (const entry of ranked) {
      const row = rows.get(entry.chunkId)
      // Gone since the postings were read (deleted or reprocessed in between): never a stale hit.
      if (!row) continue
      chunks.push({
        chunkId: row.chunkId,
        documentId: row.documentId,
        objectName: row.objectName,
        filename: filenameOf(row.objectName),
        documentType: row.documentType,
        description: row.description,
        idx: row.idx,
        text: row.text,
        pageNumber: row.pageNumber,
        rowIdx: row.rowIdx,
        metadata: row.metadata,
        score: entry.score,
        usageScore: maxScore > 0 ? Math.min(1, Math.max(0, entry.score / maxScore)) : 0,
      })
    }
    return { query: analysed, chunks }
  }
}
