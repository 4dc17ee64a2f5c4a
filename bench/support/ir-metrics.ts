import { readFileSync } from 'node:fs'
import Database from 'better-sqlite3'

/** Relevance judgements: query id → (document id → grade). */
export type Qrels = Map<string, Map<string, number>>

/** Reads a BEIR `qrels/*.tsv` (header `query-id corpus-id score`). */
export function readQrels(path: string): Qrels {
  const qrels: Qrels = new Map()
  for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
    const [qid, docId, grade] = line.trim().split('\t')
    if (!qid || !docId) continue
    const judged = qrels.get(qid) ?? new Map<string, number>()
    qrels.set(qid, judged)
    judged.set(docId, Number(grade ?? 1))
  }
  return qrels
}

/** Reads a JSON-lines file. */
export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T)
}

/** nDCG@k with graded gains (grade / log2(rank + 1)), the BEIR / trec_eval definition. */
export function ndcgAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  let dcg = 0
  ranked.slice(0, k).forEach((id, i) => {
    dcg += (judged.get(id) ?? 0) / Math.log2(i + 2)
  })
  const ideal = [...judged.values()].sort((a, b) => b - a).slice(0, k)
  const idcg = ideal.reduce((sum, grade, i) => sum + grade / Math.log2(i + 2), 0)
  return idcg > 0 ? dcg / idcg : 0
}

/** Share of the relevant documents found in the first k. */
export function recallAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  const relevant = [...judged.entries()].filter(([, grade]) => grade > 0).map(([id]) => id)
  if (relevant.length === 0) return 0
  const top = new Set(ranked.slice(0, k))
  return relevant.filter((id) => top.has(id)).length / relevant.length
}

/**
 * The plain baseline: an in-memory SQLite FTS5 table with its defaults (tokenizer `unicode61`, no
 * stemming, no stop words) ranked by `bm25()`; a query is the OR of its quoted tokens.
 */
export class Fts5Baseline {
  private readonly db = new Database(':memory:')
  private readonly insert
  private readonly query

  constructor() {
    this.db.exec('CREATE VIRTUAL TABLE docs USING fts5(doc_id UNINDEXED, body)')
    this.insert = this.db.prepare('INSERT INTO docs (doc_id, body) VALUES (?, ?)')
    this.query = this.db.prepare('SELECT doc_id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?')
  }

  addAll(rows: ReadonlyArray<readonly [string, string]>): void {
    this.db.transaction(() => {
      for (const [id, body] of rows) this.insert.run(id, body)
    })()
  }

  /** The FTS5 MATCH expression of a free-text query: its unicode61 tokens, quoted, OR-ed. */
  static matchExpression(text: string): string {
    const tokens = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
    return [...new Set(tokens)].map((token) => `"${token}"`).join(' OR ')
  }

  search(text: string, limit: number): string[] {
    const match = Fts5Baseline.matchExpression(text)
    if (!match) return []
    return (this.query.all(match, limit) as Array<{ doc_id: string }>).map((row) => row.doc_id)
  }

  close(): void {
    this.db.close()
  }
}
