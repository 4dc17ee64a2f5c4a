import type { SentMessage } from '../../domain/chats/messages.js'
import { toIsoZulu } from '../../lib/clock.js'
import type { MessageRecord, StoredSource } from '../../storage/ports/messages.js'

// The server's prefix, spelled out: importing it from the server module would be an import cycle.
const API_PREFIX = '/apif/v2'

function previewUrl(companyId: string, source: StoredSource): string {
  const base = `${API_PREFIX}/company/${companyId}/knowledge-base/${source.documentId}/file`
  return source.page === null ? base : `${base}#page=${source.page}`
}

/** Send-message response (spec 2.5), every field. */
export function presentSentMessage(sent: SentMessage) {
  const { turn, answer } = sent
  const previews = new Map<string, { type: string; url: string; title: string }>()
  for (const source of turn.sources) {
    if (previews.has(source.documentId)) continue
    previews.set(source.documentId, {
      type: source.documentType,
      url: previewUrl(sent.companyId, source),
      title: source.filename,
    })
  }
  return {
    chat_id: sent.chatId,
    actor: 'assistant',
    timestamp: toIsoZulu(answer.createdAt),
    text: turn.text,
    question: turn.question,
    rephrasing: turn.rephrasing,
    auto_doc_filtering: sent.autoDocFiltering,
    documents_filtered: [...turn.documentsFiltered],
    validated_autodocs: turn.validatedAutodocs,
    keywords: [...turn.keywords],
    small_talk: turn.smallTalk,
    previews: [...previews.values()],
    bot_id: sent.botId,
    tags: {
      bot_id: sent.botId,
      document_ids: [...turn.scope.documentIds],
      paths: turn.scope.paths.map((path) => ({ id: path.id, object_name: path.objectName })),
      tags: [...turn.scope.tags],
    },
    sources: turn.sources.map((source) => ({
      description: source.description,
      chunk_content: source.content,
      chunk_idx: source.chunkIdx,
      document_type: source.documentType,
      filename: source.filename,
      id: source.documentId,
      object_name: source.objectName,
      page_number: source.pageNumber ?? '',
      row_idx: source.rowIdx,
      retrieval_mode: source.retrievalMode,
      usage_score: source.usageScore,
    })),
    analysis: sent.analysis
      ? {
          result: sent.analysis.result,
          result_type: sent.analysis.resultType,
          plan: sent.analysis.plan,
          mapping: sent.analysis.mapping,
        }
      : null,
  }
}

/** Stored message (spec 2.6): `tags` as a JSON string, `page` a number (0 without pages). */
export function presentStoredMessage(message: MessageRecord) {
  return {
    actor: message.actor,
    chat_id: message.chatId,
    text: message.text,
    time: message.createdAt,
    tags: JSON.stringify(message.tags),
    sources: message.sources.map((source) => ({
      description: source.description,
      filename: source.filename,
      page: source.page ?? 0,
      page_content: source.content,
      tags: [...source.tags],
      usage_score: source.usageScore,
    })),
  }
}
