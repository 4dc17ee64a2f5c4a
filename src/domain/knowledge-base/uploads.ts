import { createReadStream } from 'node:fs'
import { detectMimeType, documentTypeOf } from '../../ingestion/detection/file-types.js'
import type { Clock } from '../../lib/clock.js'
import { errors } from '../../lib/errors.js'
import { newId } from '../../lib/ids.js'
import { formatByteSize } from '../../lib/sizes.js'
import type { BlobStore } from '../../storage/ports/blobs.js'
import type { CompanyRecord } from '../../storage/ports/companies.js'
import type { CsvDelimiter, DocumentRecord, KbObjectRecord, LoaderType } from '../../storage/ports/knowledge-base.js'
import type { Repositories, Store } from '../../storage/store.js'
import { assertLicenceActive } from '../companies/licence.js'
import type { Principal } from '../principal.js'
import { resolveTagIds } from '../tags/tags.js'
import { type DocumentOptions, enqueueIngest, pendingProcessing } from './documents.js'
import { normalizeFileName, normalizeFilePath, normalizeFolderPath } from './paths.js'
import { assertPlaceable, ensureFolder } from './tree.js'

/** The uploaded file, already streamed to a temporary file by the transport. */
export interface ReceivedFile {
  /** Temporary file holding the bytes; the caller removes it afterwards. */
  readonly path: string
  /** File name as the client sent it. */
  readonly name: string
  readonly size: number
  readonly sha256: string
  /** The type the client declared for it (a multipart part's `Content-Type`), if any: a hint that it is text. */
  readonly declaredType?: string
}

/** Endpoint 13's fields, parsed but not yet checked against the knowledge base. */
export interface UploadRequest {
  readonly file: ReceivedFile
  /** Target folder as sent; `/` when absent. */
  readonly folder: string
  readonly loaderType: LoaderType | undefined
  readonly autoDescription: boolean | undefined
  readonly description: string | undefined
  readonly overwrite: boolean
  readonly csvDelimiter: CsvDelimiter | undefined
  readonly imageMinSizeRatio: number | undefined
  /** Tag ids; undefined when the field was absent (an overwrite then keeps the document's tags). */
  readonly tags: readonly string[] | undefined
}

export interface UploadDeps {
  readonly store: Store
  readonly blobs: BlobStore
  readonly clock: Clock
}

/** A description given by the user means no generated one, unless auto_description says so explicitly. */
function optionsOf(request: UploadRequest): DocumentOptions {
  const description = request.description?.trim() ? request.description : ''
  const autoDescription = request.autoDescription ?? description === ''
  return {
    loaderType: request.loaderType ?? 'STANDARD',
    autoDescription,
    description,
    descriptionType: autoDescription ? 'ai' : 'manual',
    csvDelimiter: request.csvDelimiter ?? null,
    imageMinSizeRatio: request.imageMinSizeRatio ?? null,
  }
}

/** The licence's size limit, counting an overwritten document's bytes as freed. */
async function assertRoomFor(
  repositories: Repositories,
  company: CompanyRecord,
  replaced: KbObjectRecord | undefined,
  size: number,
): Promise<void> {
  const replacedSize = replaced?.kind === 'document' ? replaced.size : 0
  const storedAfter = (await repositories.knowledgeBase.storedBytes(company.id)) - replacedSize + size
  if (storedAfter > company.kbMaxBytes) throw errors.knowledgeBaseFull(formatByteSize(company.kbMaxBytes))
}

/**
 * Stores an uploaded file as a document of the caller's company and queues its ingestion.
 * Checks, in order: paths (invalid_path), licence (license_expired), tags (invalid_reference),
 * name clashes (already_exists, unless overwriting a document), the licence's size limit
 * (knowledge_base_full). Then writes the blob and, in one transaction, the missing folders, the
 * document row (PENDING), its tags and an ingest job. On overwrite the document keeps its id and
 * the replaced blob is removed after the commit; if the transaction fails, the new blob is removed.
 */
export async function uploadDocument(
  deps: UploadDeps,
  principal: Principal,
  request: UploadRequest,
): Promise<{ id: string; created: boolean }> {
  const { store, blobs, clock } = deps
  const companyId = principal.companyId
  const folder = normalizeFolderPath(request.folder, 'body/path')
  const objectName = normalizeFilePath(`${folder}${normalizeFileName(request.file.name, 'body/files')}`, 'body/files')
  const company = await store.companies.findById(companyId)
  if (!company) throw errors.notFound('company', companyId)
  assertLicenceActive(company, clock)
  const tagIds = request.tags && (await resolveTagIds(store, companyId, request.tags, 'body/tags'))

  await assertPlaceable(store, companyId, objectName)
  const existing = await store.knowledgeBase.findByName(companyId, objectName)
  if (existing && !request.overwrite) throw errors.alreadyExists('document', objectName)
  // Checked early so a full knowledge base costs no blob write, and again under the company lock.
  await assertRoomFor(store, company, existing, request.file.size)

  const mimeType = await detectMimeType(request.file.path, objectName, request.file.size, request.file.declaredType)
  const blobKey = `${companyId}/${newId()}`
  await blobs.put(blobKey, createReadStream(request.file.path))
  let result: { id: string; replacedBlob: string | undefined }
  try {
    result = await store.transaction(async (tx) => {
      const now = clock.now()
      await tx.companies.lockForLimits(companyId)
      await assertPlaceable(tx, companyId, objectName)
      if (folder !== '/') await ensureFolder(tx, companyId, folder, now)
      const current = await tx.knowledgeBase.findByName(companyId, objectName)
      if (current && (current.kind !== 'document' || !request.overwrite)) {
        throw errors.alreadyExists('document', objectName)
      }
      await assertRoomFor(tx, company, current, request.file.size)
      const document: DocumentRecord = {
        kind: 'document',
        id: current?.id ?? newId(),
        companyId,
        objectName,
        size: request.file.size,
        mimeType,
        sha256: request.file.sha256,
        blobKey,
        ...optionsOf(request),
        documentType: documentTypeOf(mimeType),
        processing: pendingProcessing(),
        // New content: the card is read again from it (a correction of the old content no longer applies);
        // the old one describes the old chunks, which stay searchable until the new ones commit.
        card: current?.kind === 'document' ? current.card : null,
        cardType: 'ai',
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
      }
      if (current) await tx.knowledgeBase.replaceDocument(document)
      else await tx.knowledgeBase.insertDocument(document)
      if (tagIds !== undefined || !current) await tx.tags.setDocumentTags(companyId, document.id, tagIds ?? [])
      await enqueueIngest(tx, companyId, document.id, now)
      return { id: document.id, replacedBlob: current?.blobKey }
    })
  } catch (error) {
    await blobs.delete(blobKey).catch(() => undefined)
    throw error
  }
  // A failed removal only leaves unreferenced bytes behind; the upload itself has succeeded.
  if (result.replacedBlob) await blobs.delete(result.replacedBlob).catch(() => undefined)
  return { id: result.id, created: result.replacedBlob === undefined }
}
