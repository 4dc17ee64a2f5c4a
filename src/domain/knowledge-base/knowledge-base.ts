import type { Readable } from 'node:stream'
import { withCardSentence } from '../../ingestion/pipeline/describe.js'
import type { Clock } from '../../lib/clock.js'
import { AppError, errors } from '../../lib/errors.js'
import type { BlobStore } from '../../storage/ports/blobs.js'
import type { ChunkRecord } from '../../storage/ports/chunks.js'
import type { CsvDelimiter, DocumentRecord, KbObjectRecord, LoaderType } from '../../storage/ports/knowledge-base.js'
import type { Store } from '../../storage/store.js'
import { DEFAULT_LANGUAGE } from '../../text/analysis.js'
import type { Principal } from '../principal.js'
import { resolveTagIds } from '../tags/tags.js'
import { forgetDocumentsInBots } from './bot-references.js'
import { type CardCorrection, correctedCard } from './cards.js'
import { enqueueIngest, pendingProcessing } from './documents.js'
import { normalizeFolderPath } from './paths.js'
import { assertPlaceable, ensureFolder } from './tree.js'
import { type UploadRequest, uploadDocument } from './uploads.js'

/** An entry with the ids of its tags (always empty for folders), ordered by tag name. */
export interface KbEntry {
  readonly object: KbObjectRecord
  readonly tags: readonly string[]
}

export interface KbListRequest {
  /** Folder as sent; `/` is the root. */
  readonly path: string
  readonly recursive: boolean
  readonly search?: string | undefined
  /** Only the documents carrying this tag of the company (extension). */
  readonly tag?: string | undefined
  readonly offset: number
  readonly limit: number
}

/** Endpoint 16's fields; absent ones are left as they are. */
export interface MetadataChanges {
  readonly loaderType?: LoaderType
  readonly autoDescription?: boolean
  readonly description?: string
  readonly csvDelimiter?: CsvDelimiter
  readonly imageMinSizeRatio?: number
  readonly tags?: readonly string[]
  /** Corrections of the document card (extension): the document is re-indexed, not parsed again. */
  readonly card?: CardCorrection
}

export interface KnowledgeBaseServiceDeps {
  readonly store: Store
  readonly blobs: BlobStore
  readonly clock: Clock
}

function notAFile(id: string): AppError {
  return new AppError('not_a_file', `${id} is a folder, not a document`)
}

/** The company's tree of folders and documents, their metadata and their original bytes. */
export class KnowledgeBaseService {
  constructor(private readonly deps: KnowledgeBaseServiceDeps) {}

  /**
   * The direct children of a folder (folders first, then files, by name ignoring case), or with
   * `recursive` its whole subtree depth-first by path; `search` keeps entries whose name contains
   * it ignoring case, `tag` the documents carrying that tag. A folder or tag that does not exist
   * in the company is not_found; `/` always exists.
   */
  async list(principal: Principal, request: KbListRequest): Promise<KbEntry[]> {
    const companyId = principal.companyId
    const folder = normalizeFolderPath(request.path, 'querystring/path')
    if (folder !== '/') {
      const object = await this.deps.store.knowledgeBase.findByName(companyId, folder)
      if (object?.kind !== 'folder') throw errors.notFound('folder', folder)
    }
    if (request.tag && !(await this.deps.store.tags.findById(companyId, request.tag))) {
      throw errors.notFound('tag', request.tag)
    }
    const objects = await this.deps.store.knowledgeBase.list(companyId, {
      folder,
      recursive: request.recursive,
      search: request.search || undefined,
      tagId: request.tag || undefined,
      offset: request.offset,
      limit: request.limit,
    })
    return this.withTags(companyId, objects)
  }

  async get(principal: Principal, id: string): Promise<KbEntry> {
    const object = await this.require(principal.companyId, id)
    const [entry] = await this.withTags(principal.companyId, [object])
    return entry ?? { object, tags: [] }
  }

  /** Endpoint 13; see uploadDocument. */
  async upload(principal: Principal, request: UploadRequest): Promise<{ id: string; created: boolean }> {
    return uploadDocument(this.deps, principal, request)
  }

  /** mkdir -p: creates the folder and its missing parents; `created` is false when it existed. */
  async createFolder(principal: Principal, path: string): Promise<{ id: string; created: boolean }> {
    const companyId = principal.companyId
    const folder = normalizeFolderPath(path, 'body/path')
    if (folder === '/') throw errors.invalidPath('body/path', 'the root folder always exists and cannot be created')
    return this.deps.store.transaction(async (tx) => {
      await assertPlaceable(tx, companyId, folder)
      return ensureFolder(tx, companyId, folder, this.deps.clock.now())
    })
  }

  /**
   * Edits a document's options and tags. A new description makes it `manual`; auto_description
   * true makes it `ai` again. A change of loader type, CSV delimiter or image ratio, or a request
   * for a generated description, sends the document back to PENDING with a new ingest job. A card
   * correction makes the card `manual` (processing keeps it from then on) and takes effect in
   * retrieval at the next question, without processing the document again.
   */
  async updateMetadata(principal: Principal, id: string, changes: MetadataChanges): Promise<{ id: string }> {
    const companyId = principal.companyId
    const { store, clock } = this.deps
    const object = await this.require(companyId, id)
    if (object.kind !== 'document') throw notAFile(id)
    const tagIds = changes.tags && (await resolveTagIds(store, companyId, changes.tags, 'body/tags'))
    await store.transaction(async (tx) => {
      const current = await tx.knowledgeBase.findById(companyId, id)
      if (!current) throw errors.notFound('document', id)
      if (current.kind !== 'document') throw notAFile(id)
      const now = clock.now()
      let next = applyChanges(current, changes)
      if (changes.card !== undefined && next.card && next.descriptionType === 'ai' && next.autoDescription) {
        // The generated description opens with the card's sentence: it follows the correction.
        const [context] = await tx.search.documentContexts(companyId, [id])
        const language = context?.language ?? DEFAULT_LANGUAGE
        next = { ...next, description: withCardSentence(current.description, current.card, next.card, language) }
      }
      const reprocess =
        next.loaderType !== current.loaderType ||
        next.csvDelimiter !== current.csvDelimiter ||
        next.imageMinSizeRatio !== current.imageMinSizeRatio ||
        changes.autoDescription === true
      await tx.knowledgeBase.replaceDocument({
        ...next,
        processing: reprocess ? pendingProcessing() : current.processing,
        updatedAt: now,
      })
      if (tagIds) await tx.tags.setDocumentTags(companyId, id, tagIds)
      if (reprocess) await enqueueIngest(tx, companyId, id, now)
    })
    return { id }
  }

  /**
   * Queues every processed or failed document of a company for processing again (`lantern admin
   * documents reprocess`): after an upgrade, to read cards, tables and terms the new way. A
   * document stays searchable as it is until a worker takes its job; documents waiting or being
   * processed already are left alone. Returns how many were queued; an unknown company is not_found.
   */
  async reprocessCompany(companyId: string): Promise<number> {
    const { store, clock } = this.deps
    if (!(await store.companies.findById(companyId))) throw errors.notFound('company', companyId)
    const documents = await store.knowledgeBase.documentsUnder(companyId, '/')
    const done = documents.filter((d) => d.processing.state === 'PROCESSED' || d.processing.state === 'ERROR')
    await store.transaction(async (tx) => {
      const now = clock.now()
      for (const document of done) await enqueueIngest(tx, companyId, document.id, now)
    })
    return done.length
  }

  /**
   * Deletes a document, or a folder with everything below it. Rows, tag links, chunks and their
   * postings, queued ingest jobs and bots' references to the deleted files go in one transaction;
   * the blobs right after it.
   */
  async delete(principal: Principal, id: string): Promise<void> {
    const companyId = principal.companyId
    const object = await this.require(companyId, id)
    const removed = await this.deps.store.transaction(async (tx) => {
      const now = this.deps.clock.now()
      // Chunks and postings first: once the rows are gone, nothing names the postings to delete.
      const doomed =
        object.kind === 'document'
          ? [object.id]
          : (await tx.knowledgeBase.documentsUnder(companyId, object.objectName)).map((d) => d.id)
      await tx.chunks.deleteForDocuments(companyId, doomed)
      const documents = await tx.knowledgeBase.deleteSubtree(companyId, object.objectName)
      for (const document of documents) await tx.jobs.cancelQueued(companyId, document.id, now)
      await forgetDocumentsInBots(
        tx,
        companyId,
        documents.map((document) => document.objectName),
        now,
      )
      return documents
    })
    // A failed removal leaves unreferenced bytes only; the documents are gone either way.
    await Promise.allSettled(removed.map((document) => this.deps.blobs.delete(document.blobKey)))
  }

  /**
   * Endpoint 17: the chunks of a document ordered by idx; empty until it is processed. A folder is
   * not_a_file; an unknown or foreign id not_found. The chunks of a document being reprocessed are
   * those of its last processed version until the new ones commit.
   */
  async chunks(principal: Principal, id: string): Promise<ChunkRecord[]> {
    const object = await this.require(principal.companyId, id)
    if (object.kind !== 'document') throw notAFile(id)
    return this.deps.store.chunks.listForDocument(principal.companyId, id)
  }

  /** The original bytes of a document with what a download needs to describe them. */
  async openFile(principal: Principal, id: string): Promise<{ document: DocumentRecord; content: Readable }> {
    const object = await this.require(principal.companyId, id)
    if (object.kind !== 'document') throw notAFile(id)
    const content = await this.deps.blobs.open(object.blobKey)
    if (!content) throw errors.internal(new Error(`blob ${object.blobKey} of document ${id} is missing`))
    return { document: object, content }
  }

  private async require(companyId: string, id: string): Promise<KbObjectRecord> {
    const object = await this.deps.store.knowledgeBase.findById(companyId, id)
    if (!object) throw errors.notFound('knowledge-base object', id)
    return object
  }

  private async withTags(companyId: string, objects: readonly KbObjectRecord[]): Promise<KbEntry[]> {
    const documentIds = objects.filter((object) => object.kind === 'document').map((object) => object.id)
    const tags = await this.deps.store.tags.tagIdsOf(companyId, documentIds)
    return objects.map((object) => ({ object, tags: tags.get(object.id) ?? [] }))
  }
}

function applyChanges(document: DocumentRecord, changes: MetadataChanges): DocumentRecord {
  let { description, descriptionType, autoDescription, card, cardType } = document
  if (changes.card !== undefined) {
    card = correctedCard(document.card, changes.card, 'body/document_card')
    cardType = 'manual'
  }
  if (changes.description !== undefined) {
    description = changes.description
    descriptionType = 'manual'
    autoDescription = false
  }
  if (changes.autoDescription === true) {
    descriptionType = 'ai'
    autoDescription = true
  } else if (changes.autoDescription === false) {
    autoDescription = false
  }
  return {
    ...document,
    loaderType: changes.loaderType ?? document.loaderType,
    csvDelimiter: changes.csvDelimiter ?? document.csvDelimiter,
    imageMinSizeRatio: changes.imageMinSizeRatio ?? document.imageMinSizeRatio,
    description,
    descriptionType,
    autoDescription,
    card,
    cardType,
  }
}
