import type { KbEntry } from '../../domain/knowledge-base/knowledge-base.js'
import type { DocumentRecord } from '../../storage/ports/knowledge-base.js'

/** The document card (extension): what the document is about, with its file name and folder. */
function presentCard(document: DocumentRecord) {
  const card = document.card
  if (!card) return null
  const cut = document.objectName.lastIndexOf('/')
  const period = card.period
  return {
    title: card.title,
    subjects: [...card.subjects],
    period: period && {
      label: period.label,
      start: period.start,
      end: period.end,
      fiscal_year: period.fiscalYear ?? null,
      fiscal_quarter: period.fiscalQuarter ?? null,
    },
    kind: card.kind,
    filename: document.objectName.slice(cut + 1),
    folder: document.objectName.slice(0, cut + 1),
    card_type: document.cardType,
  }
}

/** List entry of spec 2.7: `size` only for files, `tags` empty for folders. */
export function presentEntry({ object, tags }: KbEntry) {
  const isFile = object.kind === 'document'
  return {
    id: object.id,
    object_name: object.objectName,
    is_file: isFile,
    is_folder: !isFile,
    ...(object.kind === 'document' ? { size: object.size } : {}),
    tags: [...tags],
    create_at: object.createdAt,
    update_at: object.updatedAt,
  }
}

function presentProcessing(document: DocumentRecord) {
  const p = document.processing
  return {
    chunk_count: p.chunkCount,
    doc_pages_count: p.docPagesCount,
    duration: p.duration,
    embedding_state: p.state,
    error_details: p.errorDetails,
    start_timestamp: p.startedAt,
    end_timestamp: p.endedAt,
    progress: { done: p.progressDone, total: p.progressTotal },
  }
}

/** Metadata of spec 2.7: the document fields and processing state, or the folder fields. */
export function presentMetadata(entry: KbEntry) {
  const { object } = entry
  if (object.kind === 'folder') return presentEntry(entry)
  return {
    ...presentEntry(entry),
    size: object.size,
    description: object.description,
    description_type: object.descriptionType,
    document_type: object.documentType,
    loader_type_preference: object.loaderType.toLowerCase(),
    processing: presentProcessing(object),
    document_card: presentCard(object),
  }
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / 8187). */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_')
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}
