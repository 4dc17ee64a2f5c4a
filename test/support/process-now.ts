import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { splitPath } from '../../src/domain/knowledge-base/paths.js'
import { indexDocument } from '../../src/ingestion/pipeline/index-document.js'
import type { ProcessedDocument } from '../../src/ingestion/pipeline/pipeline-types.js'
import { processDocument } from '../../src/ingestion/pipeline/process-document.js'
import type { EmbeddingState } from '../../src/storage/ports/knowledge-base.js'
import type { Tenant } from './factories.js'
import type { TestApp } from './test-app.js'

const LIMITS = {
  maxPages: 1000,
  maxZipEntries: 1000,
  maxZipUncompressedBytes: 100 * 1024 * 1024,
  maxZipRatio: 100,
  timeBudgetMs: 60_000,
  memoryMb: 512,
}

/**
 * What the ingest job does, in the test process (no job runner, so nothing is taken from other
 * test files sharing the PostgreSQL database): process the stored bytes, then index the chunks
 * and mark the document PROCESSED in one transaction.
 */
export async function processNow(
  t: TestApp,
  tenant: Tenant,
  id: string,
  options: { autoDescription?: boolean } = {},
): Promise<ProcessedDocument> {
  const document = await t.ctx.store.knowledgeBase.findById(tenant.companyId, id)
  if (document?.kind !== 'document') throw new Error(`no document ${id}`)
  const dir = mkdtempSync(join(tmpdir(), 'lantern-process-'))
  try {
    const filePath = join(dir, 'original')
    const content = await t.ctx.blobs.open(document.blobKey)
    if (!content) throw new Error('blob missing')
    await pipeline(content, createWriteStream(filePath))
    const processed = await processDocument(
      {
        companyId: tenant.companyId,
        documentId: id,
        objectName: document.objectName,
        filename: splitPath(document.objectName).name,
        mimeType: document.mimeType,
        filePath,
        options: { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0 },
        limits: LIMITS,
        ocrLanguages: ['eng'],
        mutool: null,
        soffice: null,
        autoDescription: options.autoDescription ?? false,
        chunkTokens: 120,
        chunkOverlapTokens: 20,
      },
      () => {},
    )
    await t.ctx.store.transaction(async (tx) => {
      if (!(await indexDocument(tx, tenant.companyId, id, processed))) throw new Error(`document ${id} is gone`)
      await tx.knowledgeBase.updateProcessing(tenant.companyId, id, 'any', {
        state: 'PROCESSED',
        chunkCount: processed.chunks.length,
        docPagesCount: processed.pageCount,
        card: processed.card,
        ...(processed.description === null ? {} : { generatedDescription: processed.description }),
      })
    })
    return processed
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Sets a document's state without touching its chunks (a run started, or failed). */
export async function setState(t: TestApp, tenant: Tenant, id: string, state: EmbeddingState): Promise<void> {
  const updated = await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, id, 'any', { state })
  if (!updated) throw new Error(`no document ${id}`)
}
