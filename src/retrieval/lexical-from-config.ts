import type { Config } from '../config.js'
import type { SearchRepository } from '../storage/ports/search.js'
import { LexicalRetriever } from './lexical-retriever.js'
import { MemoryLexicalRetriever } from './memory-lexical-retriever.js'
import type { ExplainingRetriever } from './types.js'

/** How long a query waits for its company's index to load before the store answers it. */
const LOAD_WAIT_MS = 2000

/**
 * The lexical retriever LANTERN_SEARCH_INDEX_MB asks for: the in-memory index per company in front
 * of the store (the default), or the store alone when it is 0.
 */
export function lexicalRetrieverFromConfig(
  config: Pick<Config, 'searchIndexMb'>,
  search: SearchRepository,
  onTooLarge?: (companyId: string, bytes: number) => void,
): ExplainingRetriever {
  const store = new LexicalRetriever(search)
  if (config.searchIndexMb === 0) return store
  return new MemoryLexicalRetriever({
    repository: search,
    fallback: store,
    // A company's first query waits this long for its index (seconds at 100k chunks), then the
    // store answers it while the load goes on.
    cache: { budgetBytes: config.searchIndexMb * 1024 * 1024, onTooLarge, loadWaitMs: LOAD_WAIT_MS },
  })
}
