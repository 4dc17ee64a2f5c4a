import type { SearchResult } from '../../domain/search/search.js'

/** The search extension's wire shape: hits best first, then the analysed query. */
export function presentSearch(result: SearchResult) {
  return {
    hits: result.hits.map((hit) => ({
      document_id: hit.documentId,
      object_name: hit.objectName,
      filename: hit.filename,
      page_number: hit.pageNumber,
      row_idx: hit.rowIdx,
      chunk_idx: hit.idx,
      score: hit.score,
      usage_score: hit.usageScore,
      text: hit.text,
      document_type: hit.documentType,
    })),
    query: { terms: [...result.query.terms], language: result.query.language },
  }
}
