import { basename, dirname, join } from 'node:path'
import { createCompany } from '../../support/admin.js'
import { BenchApi } from '../../support/api.js'
import { pool } from '../../support/chat-api.js'
import { round } from '../../support/report.js'
import type { BenchServer, ServerRuntime } from '../../support/server.js'
import { type Tracked, track, waitForAll } from '../../support/wait.js'
import type { KnowledgeBasePlan } from './layouts.js'
import { type Manifest, type ManifestDocument, type ManifestTenant, writeManifest } from './manifest.js'

/** Questions a tenant may ask: enough for any number of runs. */
const QUESTIONS_MAX = 100_000_000

/** A tenant's knowledge base, filled and processed. */
export interface KnowledgeBase {
  readonly plan: KnowledgeBasePlan
  readonly tenant: ManifestTenant
  /**
   * Document id of each PDF it holds, by `doc_name`: the plan's, and any an earlier run with other
   * options put there (a reused folder).
   */
  readonly documentIds: ReadonlyMap<string, string>
  /** PDFs not PROCESSED, with their state and error. */
  readonly failed: readonly string[]
  readonly chunks: number
}

export interface FillOptions {
  readonly runtime: ServerRuntime
  readonly pdfDir: string
  /** Uploads in flight. */
  readonly concurrency: number
  readonly loader: 'STANDARD' | 'ADVANCED' | undefined
  readonly timeoutMs: number
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i])
}

async function tenantFor(
  server: BenchServer,
  manifest: Manifest,
  plan: KnowledgeBasePlan,
  runtime: ServerRuntime,
): Promise<ManifestTenant> {
  const kept = manifest.tenants[plan.key]
  if (kept) {
    if (kept.layout !== plan.layout || !sameList(kept.excludedCompanies, plan.excludedCompanies)) {
      throw new Error(`the kept data folder's tenant "${plan.key}" was built for other companies; run without --reuse`)
    }
    return kept
  }
  const credentials = await createCompany(runtime, server.dataDir, `bench answers ${plan.key}`, QUESTIONS_MAX)
  const tenant: ManifestTenant = {
    key: plan.key,
    layout: plan.layout,
    excludedCompanies: plan.excludedCompanies,
    credentials,
    documents: {},
  }
  manifest.tenants[plan.key] = tenant
  writeManifest(server.dataDir, manifest)
  return tenant
}

/**
 * Makes every planned knowledge base ready: creates the tenants the manifest lacks (`lantern
 * admin company create`), uploads the PDFs not uploaded yet (all tenants' uploads first, so the
 * service's workers never wait), records each in the manifest, then waits until every PDF the tenants
 * hold is processed (or failed). A reused folder whose PDFs are all there costs one status read
 * per PDF.
 */
export async function fillKnowledgeBases(
  server: BenchServer,
  manifest: Manifest,
  plans: readonly KnowledgeBasePlan[],
  options: FillOptions,
): Promise<KnowledgeBase[]> {
  const tenants: ManifestTenant[] = []
  for (const plan of plans) tenants.push(await tenantFor(server, manifest, plan, options.runtime))
  const statusApis = await Promise.all(tenants.map((t) => BenchApi.connect(server.origin, t.credentials)))
  const uploads = plans.flatMap((plan, i) =>
    plan.documents
      .filter((docName) => (tenants[i] as ManifestTenant).documents[docName] === undefined)
      .map((docName) => ({ i, docName, objectName: plan.objectNames.get(docName) as string })),
  )
  const started = Date.now()
  if (uploads.length > 0) console.log(`  uploading ${uploads.length} PDFs into ${plans.length} knowledge bases`)
  await pool(uploads, options.concurrency, async ({ i, docName, objectName }) => {
    const folder = dirname(objectName)
    const id = await (statusApis[i] as BenchApi).upload(join(options.pdfDir, `${docName}.pdf`), basename(objectName), {
      path: folder === '/' ? '/' : `${folder}/`,
      loaderType: options.loader,
    })
    const tenant = tenants[i] as ManifestTenant
    tenant.documents[docName] = { id, objectName }
    writeManifest(server.dataDir, manifest)
  })

  const held = tenants.map((tenant) =>
    Object.entries(tenant.documents).sort(([, a], [, b]) => a.objectName.localeCompare(b.objectName)),
  )
  const tracked = held.map((documents) => documents.map(([, document]) => track(document.id)))
  let lastPrint = Date.now()
  await Promise.all(
    tracked.map((docs, i) =>
      waitForAll(statusApis[i] as BenchApi, docs, {
        timeoutMs: options.timeoutMs,
        stuckAfterMs: 600_000 + 60_000,
        pollMs: 1000,
        concurrency: 4,
        onRound: () => {
          if (Date.now() - lastPrint < 30_000) return
          lastPrint = Date.now()
          const done = tracked.flat().filter((doc) => doc.outcome !== undefined).length
          console.log(
            `  ${done}/${tracked.flat().length} PDFs processed after ${round((Date.now() - started) / 1000)} s`,
          )
        },
        abort: () => (server.running ? undefined : `the server exited (code ${server.exitCode})`),
      }),
    ),
  )
  return plans.map((plan, i) => {
    const documents = held[i] as Array<[string, ManifestDocument]>
    const docs = tracked[i] as Tracked[]
    return {
      plan,
      tenant: tenants[i] as ManifestTenant,
      documentIds: new Map(documents.map(([docName, document]) => [docName, document.id])),
      failed: docs.flatMap((doc, j) =>
        doc.outcome === 'PROCESSED'
          ? []
          : [`${documents[j]?.[0]}: ${doc.outcome} ${doc.last?.error_details || doc.note}`.trim()],
      ),
      chunks: docs.reduce((sum, doc) => sum + (doc.last?.chunk_count ?? 0), 0),
    }
  })
}
