import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DocumentContextIndex } from '../../src/retrieval/context/document-context.js'
import { LexicalRetriever } from '../../src/retrieval/lexical-retriever.js'
import { MemoryLexicalRetriever } from '../../src/retrieval/memory-lexical-retriever.js'
import type { ExplainingRetriever } from '../../src/retrieval/types.js'
import type { DocumentCard } from '../../src/storage/ports/document-card.js'
import type { DocumentContextRecord } from '../../src/storage/ports/search.js'
import { analyze } from '../../src/text/analysis.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { kbPath, uploadOk } from '../support/knowledge-base.js'
import { processNow } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

function card(subjects: string[], extra: Partial<DocumentCard> = {}): DocumentCard {
  return { title: null, subjects, period: null, kind: null, ...extra }
}

function record(documentId: string, objectName: string, subjects: string[], extra: Partial<DocumentCard> = {}) {
  return { documentId, objectName, card: card(subjects, extra), language: 'en' } satisfies DocumentContextRecord
}

const matches = (index: DocumentContextIndex, question: string, scope: string[] | null = null) =>
  index.matches(analyze(question, 'en'), scope)
const shares = (index: DocumentContextIndex, question: string, scope: string[] | null = null) =>
  Object.fromEntries([...matches(index, question, scope)].map(([id, match]) => [id, match.share]))
const weights = (index: DocumentContextIndex, question: string) =>
  Object.fromEntries([...matches(index, question)].map(([id, match]) => [id, match.weight]))

describe('document context index', () => {
  const index = new DocumentContextIndex([
    record('amzn', '/filings/filing-001.pdf', ['AMAZON.COM, INC.', 'AMZN'], { kind: 'annual report' }),
    record('att', '/filings/filing-002.pdf', ['AT&T Inc.', 'T'], { kind: 'annual report' }),
    record('coke', '/filings/filing-003.pdf', ['The Coca-Cola Company', 'KO'], { kind: 'quarterly report' }),
    record('fl', '/filings/filing-004.pdf', ['Foot Locker, Inc.', 'FL'], { kind: 'quarterly report' }),
    record('none', '/filings/filing-005.pdf', []),
  ])

  it('finds names by their parts and whole, in any case, joined or not', () => {
    expect(shares(index, "What was Amazon's revenue?")).toEqual({ amzn: 1 })
    expect(shares(index, 'amazon.com net sales')).toEqual({ amzn: 1 })
    expect(shares(index, 'AT&T debt')).toEqual({ att: 1 })
    expect(shares(index, 'Coca-Cola volume')).toEqual({ coke: 1 })
    expect(shares(index, 'cocacola volume')).toEqual({ coke: 1 })
    expect(shares(index, 'Footlocker stores')).toEqual({ fl: 1 })
    expect(shares(index, 'Foot Locker stores')).toEqual({ fl: 1 })
    expect(shares(index, 'AMZN guidance')).toEqual({ amzn: 1 })
  })

  it('ignores legal forms and words every document shares, and weighs the rarer words more', () => {
    // "company" and "inc" name no one; "filings" is every document's folder: it tells none apart.
    expect(weights(index, 'What did the company do?')).toEqual({})
    const name = weights(index, 'Amazon').amzn as number
    expect(name).toBeGreaterThan(1)
    const shared = Object.values(weights(index, 'What did the company do in its filings?'))
    expect(shared).toHaveLength(5)
    expect(new Set(shared).size).toBe(1)
    expect(shared[0]).toBeLessThan(name / 10)
    // A kind two documents share weighs less than a name, and a kind counts half.
    const both = weights(index, 'Compare Amazon and Coca-Cola in their quarterly report')
    expect(Object.keys(both).sort()).toEqual(['amzn', 'att', 'coke', 'fl'])
    expect(both.coke).toBeGreaterThan(both.amzn as number)
    expect(both.amzn).toBeGreaterThan(both.fl as number)
    expect(both.fl).toBeGreaterThan(both.att as number)
    expect(both.fl).toBeLessThan(name / 2)
  })

  it('keeps to the scope', () => {
    expect(shares(index, 'Amazon and AT&T', ['att', 'none'])).toEqual({ att: expect.any(Number) })
  })
})

const FILLER = [
  'Net sales increased compared with the prior year, driven by higher volume in every region.',
  'Operating expenses grew with research and development and with marketing programs.',
  'Cash provided by operating activities funded capital expenditures and share repurchases.',
]

// The document context changes rankings the same way on every path: the store's exhaustive and
// threshold scorers and the in-memory index, loaded at start or kept up to date by the change log.
describe.each(storeModes())('document context in retrieval (%s)', (mode) => {
  let t: TestApp
  let tenant: Tenant
  const ids = new Map<string, string>()
  let kept: MemoryLexicalRetriever

  function memory(): MemoryLexicalRetriever {
    const search = t.ctx.store.search
    return new MemoryLexicalRetriever({
      repository: search,
      fallback: new LexicalRetriever(search),
      cache: { budgetBytes: 64 * 1024 * 1024 },
    })
  }

  async function add(name: string, subjects: string[]): Promise<void> {
    const id = await uploadOk(t, tenant, name, FILLER.join('\n'), { fields: { path: '/filings' } })
    await processNow(t, tenant, id)
    await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, id, 'any', { card: card(subjects) })
    ids.set(name, id)
  }

  /** The ranking of every path, checked to be the same, as [file name, score]. */
  async function ranking(text: string, limit = 10): Promise<Array<[string, number]>> {
    const search = t.ctx.store.search
    const paths: ExplainingRetriever[] = [
      new LexicalRetriever(search),
      new LexicalRetriever(search, { pageSize: 1, exhaustiveChunks: 0 }),
      kept,
      memory(),
    ]
    const results = []
    for (const retriever of paths) {
      const { chunks } = await retriever.retrieve(tenant.companyId, {
        text,
        scope: { documentIds: null },
        limit,
        language: 'en',
      })
      results.push(chunks.map((chunk): [string, string, number] => [chunk.filename, chunk.chunkId, chunk.score]))
    }
    for (const result of results.slice(1)) expect(result).toEqual(results[0])
    return (results[0] ?? []).map(([name, , score]) => [name, score])
  }

  beforeAll(async () => {
    t = await startTestApp(mode)
    tenant = await createTenant(t)
    kept = memory()
    // Loaded before the documents exist: they arrive through the change log.
    await kept.retrieve(tenant.companyId, { text: 'sales', scope: { documentIds: null }, limit: 1 })
    await add('filing-001.txt', ['Globex Corporation', 'GBX'])
    await add('filing-002.txt', ['Initech, Inc.'])
    await add('filing-003.txt', ['Umbrella Holdings plc'])
  }, 120_000)
  afterAll(() => t?.close())

  it('raises the documents whose card names what the question names', async () => {
    const plain = await ranking('What were net sales in the year?')
    // Same text everywhere: the tie-break by name decides, and every document scores the same.
    expect(new Set(plain.map(([, score]) => score)).size).toBe(1)
    for (const [subject, file] of [
      ['Initech', 'filing-002.txt'],
      ['GBX', 'filing-001.txt'],
      ['Umbrella', 'filing-003.txt'],
    ]) {
      const ranked = await ranking(`What were ${subject}'s net sales in the year?`)
      expect(ranked[0]?.[0]).toBe(file)
      expect(ranked[0]?.[1]).toBeGreaterThan(ranked[1]?.[1] as number)
    }
    // A chunk that matches nothing of the question is not raised by its document's name.
    expect(await ranking('Initech')).toEqual([])
  })

  it('follows a card correction at the next question, on every path', async () => {
    const id = ids.get('filing-003.txt') as string
    const res = await t.request('PATCH', kbPath(tenant, `/${id}/metadata`), {
      token: tenant.token,
      json: { document_card: { subjects: ['Hooli Inc.'] } },
    })
    expect(res.status).toBe(200)
    expect((await ranking("Hooli's net sales"))[0]?.[0]).toBe('filing-003.txt')
    const umbrella = await ranking("Umbrella's net sales")
    expect(new Set(umbrella.map(([, score]) => score)).size).toBe(1)
  })
})
