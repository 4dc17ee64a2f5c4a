/**
 * Retrieval quality on CACM (BEIR format) through the search extension: nDCG@10 and Recall@100
 * over the judged queries, for each retrieval mode asked (lexical; hybrid = LANTERN_EMBEDDINGS=use),
 * with a plain SQLite FTS5 BM25 baseline on the same documents in the same run.
 * Usage: npm run bench:retrieval -- [--help]
 */
import { join } from 'node:path'
import { BenchApi } from '../support/api.js'
import { ChatApi, pool } from '../support/chat-api.js'
import { Fts5Baseline, ndcgAt, type Qrels, readJsonl, readQrels, recallAt } from '../support/ir-metrics.js'
import { round, table } from '../support/report.js'
import { COMMON_USAGE, type Results, runBench, type ServiceBench } from '../support/run-bench.js'
import { track, waitForAll } from '../support/wait.js'

const USAGE = `npm run bench:retrieval -- [options]

Uploads every CACM document as its own text file (<_id>.txt: title, blank line, abstract) to a fresh
service, runs the 64 queries through POST /knowledge-base/search (limit 100), and scores the judged ones.
  --modes LIST           comma-separated: lexical, hybrid (LANTERN_EMBEDDINGS=use); default lexical
  --concurrency N        uploads in flight (default 8)
${COMMON_USAGE}`

interface CorpusDoc {
  readonly _id: string
  readonly title: string
  readonly text: string
}

interface Query {
  readonly _id: string
  readonly text: string
}

interface Scores {
  readonly label: string
  readonly ndcg10: number
  readonly recall100: number
  readonly queries: number
  readonly perQuery: Record<string, { ndcg10: number; recall100: number }>
  readonly notes: string
}

const MODES: Record<string, Record<string, string>> = {
  lexical: {},
  hybrid: { LANTERN_EMBEDDINGS: 'use' },
}

function score(label: string, runs: Map<string, string[]>, qrels: Qrels, notes = ''): Scores {
  const perQuery: Scores['perQuery'] = {}
  let ndcg = 0
  let recall = 0
  for (const [qid, judged] of qrels) {
    const ranked = runs.get(qid) ?? []
    const q = { ndcg10: ndcgAt(ranked, judged, 10), recall100: recallAt(ranked, judged, 100) }
    perQuery[qid] = q
    ndcg += q.ndcg10
    recall += q.recall100
  }
  return {
    label,
    ndcg10: ndcg / qrels.size,
    recall100: recall / qrels.size,
    queries: qrels.size,
    perQuery,
    notes,
  }
}

const body = (doc: CorpusDoc) => (doc.text ? `${doc.title}\n\n${doc.text}\n` : `${doc.title}\n`)

function lanternRun(
  { common, withServer }: ServiceBench,
  mode: string,
  corpus: readonly CorpusDoc[],
  queries: readonly Query[],
  qrels: Qrels,
  concurrency: number,
): Promise<Scores & { ingestSeconds: number; searchMsMean: number }> {
  return withServer({ env: MODES[mode] }, async (server) => {
    const api = await ChatApi.connect(server.origin, await server.credentials())
    const status = await BenchApi.connect(server.origin, await server.credentials())
    const started = Date.now()
    const ids = await pool(corpus, concurrency, (doc) => api.uploadText(`${doc._id}.txt`, body(doc)))
    const docs = ids.map((id) => track(id))
    let lastPrint = 0
    await waitForAll(status, docs, {
      timeoutMs: common.timeoutMs,
      stuckAfterMs: 600_000,
      pollMs: 1000,
      concurrency: 16,
      onRound: (done, total) => {
        if (Date.now() - lastPrint < 15_000) return
        lastPrint = Date.now()
        console.log(`  ${mode}: ${done}/${total} processed after ${round((Date.now() - started) / 1000)} s`)
      },
      abort: () => (server.running ? undefined : `the server exited (code ${server.exitCode})`),
    })
    const ingestSeconds = (Date.now() - started) / 1000
    const failed = docs.filter((doc) => doc.outcome !== 'PROCESSED').length
    const runs = new Map<string, string[]>()
    let searchMs = 0
    for (const query of queries) {
      const t0 = performance.now()
      const { hits } = await api.search(query.text, 100)
      searchMs += performance.now() - t0
      const ranked: string[] = []
      for (const hit of hits) {
        // documents ranked by their best chunk
        const id = (hit.filename || hit.object_name.split('/').pop() || '').replace(/\.txt$/, '')
        if (!ranked.includes(id)) ranked.push(id)
      }
      runs.set(query._id, ranked)
    }
    const notes = failed > 0 ? `${failed} documents not PROCESSED` : ''
    return {
      ...score(`Lantern ${mode}`, runs, qrels, notes),
      ingestSeconds,
      searchMsMean: searchMs / queries.length,
    }
  })
}

async function main(bench: ServiceBench): Promise<Results> {
  const { values } = bench
  const modes = String(values.modes)
    .split(',')
    .map((mode) => mode.trim())
    .filter(Boolean)
  for (const mode of modes) if (!MODES[mode]) throw new Error(`unknown mode "${mode}" (lexical, hybrid)`)
  const [dir = ''] = bench.data
  const corpus = readJsonl<CorpusDoc>(join(dir, 'corpus.jsonl'))
  const queries = readJsonl<Query>(join(dir, 'queries.jsonl'))
  const qrels = readQrels(join(dir, 'qrels/test.tsv'))
  console.log(`bench:retrieval: ${corpus.length} docs, ${queries.length} queries (${qrels.size} judged)`)

  const baselineStarted = performance.now()
  const fts = new Fts5Baseline()
  fts.addAll(corpus.map((doc) => [doc._id, `${doc.title}\n${doc.text}`] as const))
  const baselineRuns = new Map(queries.map((query) => [query._id, fts.search(query.text, 100)]))
  fts.close()
  const baseline = score('SQLite FTS5 bm25() (unicode61, defaults)', baselineRuns, qrels)
  const baselineMs = performance.now() - baselineStarted
  console.log(`  baseline: nDCG@10 ${baseline.ndcg10.toFixed(4)}, R@100 ${baseline.recall100.toFixed(4)}`)

  const results: Array<Scores & { ingestSeconds?: number; searchMsMean?: number }> = [baseline]
  for (const mode of modes) {
    try {
      const run = await lanternRun(bench, mode, corpus, queries, qrels, Number(values.concurrency))
      console.log(`  ${mode}: nDCG@10 ${run.ndcg10.toFixed(4)}, R@100 ${run.recall100.toFixed(4)}`)
      results.push(run)
    } catch (error) {
      console.log(`  ${mode}: failed: ${(error as Error).message.slice(0, 500)}`)
      results.push({
        ...score(`Lantern ${mode}`, new Map(), qrels),
        notes: `failed: ${(error as Error).message.slice(0, 200)}`,
      })
    }
  }

  const lexical = results.find((r) => r.label === 'Lantern lexical')
  const worse = lexical
    ? Object.entries(lexical.perQuery)
        .map(([qid, q]) => [qid, q.ndcg10 - (baseline.perQuery[qid]?.ndcg10 ?? 0)] as const)
        .sort((a, b) => a[1] - b[1])
        .slice(0, 5)
    : []
  const markdown = [
    `Machine: ${bench.machineLine}; load ${bench.loadAtStart}.`,
    `Corpus: ${corpus.length} documents uploaded one text file each; ${qrels.size} judged queries of ${queries.length}; search limit 100, documents ranked by their best chunk.`,
    '',
    table(
      ['system', 'nDCG@10', 'Recall@100', 'ingest (s)', 'search mean (ms)', 'notes'],
      results.map((r) => [
        r.label,
        r.ndcg10.toFixed(4),
        r.recall100.toFixed(4),
        r === baseline
          ? `- (${round(baselineMs)} ms total)`
          : r.ingestSeconds === undefined
            ? '-'
            : round(r.ingestSeconds),
        r.searchMsMean === undefined ? '-' : round(r.searchMsMean, 1),
        r.notes,
      ]),
    ),
    '',
    worse.length > 0
      ? `Queries where lexical trails the baseline most (nDCG@10 difference): ${worse.map(([qid, d]) => `q${qid} ${d.toFixed(3)}`).join(', ')}.`
      : '',
  ].join('\n')
  return { json: { machine: bench.machine, load: bench.loadAtStart, results }, markdown }
}

runBench({
  name: 'retrieval',
  usage: USAGE,
  options: { modes: { type: 'string', default: 'lexical' }, concurrency: { type: 'string', default: '8' } },
  data: ['cacm-retrieval'],
  service: { timeoutMin: 30 },
  run: main,
})
