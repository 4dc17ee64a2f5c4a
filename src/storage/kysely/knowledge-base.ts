import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type Selectable,
  type SqlBool,
  sql,
  type Updateable,
} from 'kysely'
import { translateUnique } from '../errors.js'
import type {
  CsvDelimiter,
  DocumentRecord,
  EmbeddingState,
  FolderRecord,
  KbObjectRecord,
  KnowledgeBaseRepository,
  ListQuery,
  LoaderType,
  ProcessingGuard,
  ProcessingUpdate,
} from '../ports/knowledge-base.js'
import type { Database, KbObjectsTable } from '../schema.js'
import { fromFlag, toFlag } from './booleans.js'
import { parseCard } from './cards.js'
import { recordIndexChanges } from './index-changes.js'
import { containsPattern } from './like.js'

const STATES: readonly EmbeddingState[] = ['PENDING', 'PROCESSING', 'PROCESSED', 'ERROR']

/** Parent folder, last segment and its sort key, derived from a canonical path. */
function placement(objectName: string): Pick<KbObjectsTable, 'parent_path' | 'name' | 'sort_key'> {
  const withoutSlash = objectName.endsWith('/') ? objectName.slice(0, -1) : objectName
  const cut = withoutSlash.lastIndexOf('/')
  const name = withoutSlash.slice(cut + 1)
  return { parent_path: withoutSlash.slice(0, cut + 1), name, sort_key: name.toLowerCase() }
}

function folderRow(f: FolderRecord): Insertable<KbObjectsTable> {
  return {
    id: f.id,
    company_id: f.companyId,
    object_name: f.objectName,
    ...placement(f.objectName),
    is_folder: 1,
    size: null,
    mime_type: null,
    sha256: null,
    blob_key: null,
    description: '',
    description_type: 'manual',
    card: null,
    card_type: 'ai',
    document_type: null,
    loader_type: null,
    auto_description: 0,
    csv_delimiter: null,
    image_min_size_ratio: null,
    embedding_state: null,
    error_details: '',
    chunk_count: 0,
    doc_pages_count: 0,
    processing_started_at: null,
    processing_ended_at: null,
    processing_duration: null,
    progress_done: 0,
    progress_total: 0,
    created_at: f.createdAt,
    updated_at: f.updatedAt,
  }
}

function documentRow(d: DocumentRecord): Insertable<KbObjectsTable> {
  const p = d.processing
  return {
    id: d.id,
    company_id: d.companyId,
    object_name: d.objectName,
    ...placement(d.objectName),
    is_folder: 0,
    size: d.size,
    mime_type: d.mimeType,
    sha256: d.sha256,
    blob_key: d.blobKey,
    description: d.description,
    description_type: d.descriptionType,
    document_type: d.documentType,
    loader_type: d.loaderType,
    auto_description: toFlag(d.autoDescription),
    csv_delimiter: d.csvDelimiter,
    image_min_size_ratio: d.imageMinSizeRatio,
    embedding_state: p.state,
    error_details: p.errorDetails,
    chunk_count: p.chunkCount,
    doc_pages_count: p.docPagesCount,
    processing_started_at: p.startedAt,
    processing_ended_at: p.endedAt,
    processing_duration: p.duration,
    progress_done: p.progressDone,
    progress_total: p.progressTotal,
    card: d.card === null ? null : JSON.stringify(d.card),
    card_type: d.cardType,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  }
}

function toDocument(row: Selectable<KbObjectsTable>): DocumentRecord {
  return {
    kind: 'document',
    id: row.id,
    companyId: row.company_id,
    objectName: row.object_name,
    size: Number(row.size ?? 0),
    mimeType: row.mime_type ?? 'application/octet-stream',
    sha256: row.sha256 ?? '',
    blobKey: row.blob_key ?? '',
    description: row.description,
    descriptionType: row.description_type === 'ai' ? 'ai' : 'manual',
    documentType: row.document_type ?? 'text',
    loaderType: (row.loader_type ?? 'STANDARD') as LoaderType,
    autoDescription: fromFlag(Number(row.auto_description)),
    csvDelimiter: row.csv_delimiter as CsvDelimiter | null,
    imageMinSizeRatio: row.image_min_size_ratio === null ? null : Number(row.image_min_size_ratio),
    processing: {
      state: (row.embedding_state ?? 'PENDING') as EmbeddingState,
      errorDetails: row.error_details,
      chunkCount: Number(row.chunk_count),
      docPagesCount: Number(row.doc_pages_count),
      startedAt: row.processing_started_at,
      endedAt: row.processing_ended_at,
      duration: row.processing_duration === null ? null : Number(row.processing_duration),
      progressDone: Number(row.progress_done),
      progressTotal: Number(row.progress_total),
    },
    card: parseCard(row.card),
    cardType: row.card_type === 'manual' ? 'manual' : 'ai',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function toRecord(row: Selectable<KbObjectsTable>): KbObjectRecord {
  if (Number(row.is_folder) !== 1) return toDocument(row)
  return {
    kind: 'folder',
    id: row.id,
    companyId: row.company_id,
    objectName: row.object_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

type KbExpressions = ExpressionBuilder<Database, 'kb_objects'>

/**
 * Entries strictly below a folder path. Paths compare byte-wise on both stores, and every path
 * that starts with `/a/` sorts between `/a/` and `/a0` (`0` is the byte after `/`), so this is a
 * prefix match that can use the (company_id, object_name) index.
 */
function below(folder: string) {
  return (eb: KbExpressions): Expression<SqlBool> =>
    folder === '/'
      ? sql<SqlBool>`1 = 1`
      : eb.and([eb('object_name', '>', folder), eb('object_name', '<', `${folder.slice(0, -1)}0`)])
}

export class KyselyKnowledgeBaseRepository implements KnowledgeBaseRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertFolder(folder: FolderRecord): Promise<void> {
    await translateUnique('folder', folder.objectName, () =>
      this.db.insertInto('kb_objects').values(folderRow(folder)).execute(),
    )
  }

  async insertFolderIfMissing(folder: FolderRecord): Promise<boolean> {
    const result = await this.db
      .insertInto('kb_objects')
      .values(folderRow(folder))
      .onConflict((oc) => oc.columns(['company_id', 'object_name']).doNothing())
      .executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
  }

  async insertDocument(document: DocumentRecord): Promise<void> {
    await translateUnique('document', document.objectName, () =>
      this.db.insertInto('kb_objects').values(documentRow(document)).execute(),
    )
  }

  async findById(companyId: string, id: string): Promise<KbObjectRecord | undefined> {
    const row = await this.db
      .selectFrom('kb_objects')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst()
    return row && toRecord(row)
  }

  async findByName(companyId: string, objectName: string): Promise<KbObjectRecord | undefined> {
    const row = await this.db
      .selectFrom('kb_objects')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('object_name', '=', objectName)
      .executeTakeFirst()
    return row && toRecord(row)
  }

  async findByNames(companyId: string, objectNames: readonly string[]): Promise<KbObjectRecord[]> {
    if (objectNames.length === 0) return []
    const rows = await this.db
      .selectFrom('kb_objects')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('object_name', 'in', [...new Set(objectNames)])
      .execute()
    return rows.map(toRecord)
  }

  async list(companyId: string, query: ListQuery): Promise<KbObjectRecord[]> {
    let select = this.db.selectFrom('kb_objects').selectAll().where('company_id', '=', companyId)
    select = query.recursive ? select.where(below(query.folder)) : select.where('parent_path', '=', query.folder)
    if (query.search) {
      const pattern = containsPattern(query.search.normalize('NFC').toLowerCase())
      select = select.where(sql<boolean>`sort_key like ${pattern} escape '\\'`)
    }
    const { tagId } = query
    if (tagId) {
      select = select.where('id', 'in', (eb) =>
        eb
          .selectFrom('document_tags')
          .select('document_id')
          .where('company_id', '=', companyId)
          .where('tag_id', '=', tagId),
      )
    }
    select = query.recursive
      ? select.orderBy('object_name')
      : select.orderBy('is_folder', 'desc').orderBy('sort_key').orderBy('object_name')
    const rows = await select.offset(query.offset).limit(query.limit).execute()
    return rows.map(toRecord)
  }

  async replaceDocument(document: DocumentRecord): Promise<void> {
    const { id, company_id, created_at, ...changes } = documentRow(document)
    // Its processing state may change (searchable or not): before the row, as every index writer.
    await recordIndexChanges(this.db, company_id, [id])
    await this.db
      .updateTable('kb_objects')
      .set(changes)
      .where('company_id', '=', company_id)
      .where('id', '=', id)
      .where('is_folder', '=', 0)
      .execute()
  }

  async documentsUnder(companyId: string, folder: string): Promise<DocumentRecord[]> {
    const rows = await this.db
      .selectFrom('kb_objects')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('is_folder', '=', 0)
      .where(below(folder))
      .orderBy('object_name')
      .execute()
    return rows.map(toDocument)
  }

  async deleteSubtree(companyId: string, objectName: string): Promise<DocumentRecord[]> {
    const inSubtree = (eb: KbExpressions) =>
      objectName.endsWith('/')
        ? eb.or([eb('object_name', '=', objectName), below(objectName)(eb)])
        : eb('object_name', '=', objectName)
    const documents = await this.db
      .selectFrom('kb_objects')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('is_folder', '=', 0)
      .where(inSubtree)
      .execute()
    const ids = documents.map((row) => row.id)
    await recordIndexChanges(this.db, companyId, ids)
    if (ids.length > 0) {
      await this.db
        .deleteFrom('document_tags')
        .where('company_id', '=', companyId)
        .where('document_id', 'in', ids)
        .execute()
    }
    await this.db.deleteFrom('kb_objects').where('company_id', '=', companyId).where(inSubtree).execute()
    return documents.map(toDocument)
  }

  async storedBytes(companyId: string): Promise<number> {
    const row = await this.db
      .selectFrom('kb_objects')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('total'))
      .where('company_id', '=', companyId)
      .where('is_folder', '=', 0)
      .executeTakeFirstOrThrow()
    return Number(row.total)
  }

  async countByState(companyId: string): Promise<Record<EmbeddingState, number>> {
    const rows = await this.db
      .selectFrom('kb_objects')
      .select((eb) => ['embedding_state', eb.fn.countAll<number>().as('n')])
      .where('company_id', '=', companyId)
      .where('is_folder', '=', 0)
      .groupBy('embedding_state')
      .execute()
    const counts = Object.fromEntries(STATES.map((state) => [state, 0])) as Record<EmbeddingState, number>
    for (const row of rows) {
      if (STATES.includes(row.embedding_state as EmbeddingState)) {
        counts[row.embedding_state as EmbeddingState] = Number(row.n)
      }
    }
    return counts
  }

  async updateProcessing(
    companyId: string,
    id: string,
    guard: ProcessingGuard,
    update: ProcessingUpdate,
  ): Promise<boolean> {
    const changes: Updateable<KbObjectsTable> = {}
    if (update.state !== undefined) changes.embedding_state = update.state
    if (update.errorDetails !== undefined) changes.error_details = update.errorDetails
    if (update.chunkCount !== undefined) changes.chunk_count = update.chunkCount
    if (update.docPagesCount !== undefined) changes.doc_pages_count = update.docPagesCount
    if (update.startedAt !== undefined) changes.processing_started_at = update.startedAt
    if (update.endedAt !== undefined) changes.processing_ended_at = update.endedAt
    if (update.duration !== undefined) changes.processing_duration = update.duration
    if (update.progressDone !== undefined) changes.progress_done = update.progressDone
    if (update.progressTotal !== undefined) changes.progress_total = update.progressTotal
    if (update.mimeType !== undefined) changes.mime_type = update.mimeType
    if (update.documentType !== undefined) changes.document_type = update.documentType
    // A state change makes the document searchable or not, a card changes what it is about: recorded
    // before the row is locked.
    if (update.state !== undefined || update.card !== undefined) await recordIndexChanges(this.db, companyId, [id])
    let query = this.db.updateTable('kb_objects').set(changes)
    if (update.generatedDescription !== undefined) {
      // Decided on the row at write time: a description the user typed meanwhile is kept.
      const generated = update.generatedDescription
      query = query.set((eb) => ({
        description: eb
          .case()
          .when(eb.and([eb('auto_description', '=', 1), eb('description_type', '=', 'ai')]))
          .then(generated)
          .else(eb.ref('description'))
          .end(),
      }))
    }
    if (update.card !== undefined) {
      // Decided on the row at write time too: a card the user corrected meanwhile is kept.
      const card = JSON.stringify(update.card)
      query = query.set((eb) => ({
        card: eb.case().when('card_type', '=', 'ai').then(card).else(eb.ref('card')).end(),
      }))
    }
    query = query.where('company_id', '=', companyId).where('id', '=', id).where('is_folder', '=', 0)
    if (guard === 'unfinished') query = query.where('embedding_state', 'in', ['PENDING', 'PROCESSING'])
    else if (guard !== 'any') {
      query = query.where('embedding_state', '=', 'PROCESSING').where('processing_started_at', '=', guard.run)
    }
    const result = await query.executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }
}
