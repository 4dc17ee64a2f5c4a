import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTenant, type Tenant } from '../support/factories.js'
import { uploadOk } from '../support/knowledge-base.js'
import { processNow } from '../support/process-now.js'
import { readJsonLines, sharedData } from '../support/shared-data.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const DATA = sharedData('cacm-retrieval', 'skipping the cross-store ranking comparison')
const DOCUMENTS = 60
const QUERIES = 15

interface Line {
  _id: string
  title?: string
  text: string
}

function jsonl(name: string): Line[] {
  return DATA ? readJsonLines<Line>(DATA, name) : []
}

interface Hit {
  object_name: string
  chunk_idx: number
  score: number
}

// Needs PostgreSQL and the shared CACM data beside the project.
const both = storeModes().length === 2 && DATA !== null

describe.runIf(both)('the same ranking on SQLite and PostgreSQL', () => {
  const stores: { t: TestApp; tenant: Tenant }[] = []
  const documents = jsonl('corpus.jsonl')
    .filter((doc) => doc.text.length > 300)
    .slice(0, DOCUMENTS)
  const queries = jsonl('queries.jsonl').slice(0, QUERIES)

  beforeAll(async () => {
    for (const mode of storeModes()) {
      const t = await startTestApp(mode)
      const tenant = await createTenant(t)
      stores.push({ t, tenant })
      for (const [index, doc] of documents.entries()) {
        const folder = index % 2 === 0 ? '/even' : '/odd'
        const id = await uploadOk(t, tenant, `${doc._id}.txt`, `${doc.title ?? ''}\n\n${doc.text}`, {
          fields: { path: folder },
        })
        await processNow(t, tenant, id)
      }
    }
  }, 120_000)
  afterAll(async () => {
    for (const { t } of stores) await t.close()
  })

  async function topTen(index: number, body: Record<string, unknown>): Promise<Hit[]> {
    const { t, tenant } = stores[index] as { t: TestApp; tenant: Tenant }
    const res = await t.request('POST', `/company/${tenant.companyId}/knowledge-base/search`, {
      token: tenant.token,
      json: { limit: 10, ...body },
    })
    expect(res.status, res.text).toBe(200)
    return res.body.hits.map((hit: Hit) => ({
      object_name: hit.object_name,
      chunk_idx: hit.chunk_idx,
      score: hit.score,
    }))
  }

  it('gives the same top 10, in the same order, with the same scores', async () => {
    let compared = 0
    for (const query of queries) {
      for (const extra of [{}, { filters: { folders: ['/odd'] } }]) {
        const body = { query: query.text, ...extra }
        const [sqlite, postgres] = [await topTen(0, body), await topTen(1, body)]
        expect(postgres.map(({ object_name, chunk_idx }) => `${object_name}#${chunk_idx}`)).toEqual(
          sqlite.map(({ object_name, chunk_idx }) => `${object_name}#${chunk_idx}`),
        )
        postgres.forEach((hit, rank) => {
          expect(Math.abs(hit.score - (sqlite[rank] as Hit).score)).toBeLessThan(1e-9)
        })
        compared += sqlite.length
      }
    }
    // The queries do find things: the comparison is not between two empty lists.
    expect(compared).toBeGreaterThan(QUERIES * 10)
  })
})
