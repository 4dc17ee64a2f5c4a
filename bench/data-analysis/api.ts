import { HttpError } from '../support/api.js'
import type { ChatApi } from '../support/chat-api.js'

/** The `analysis` extension field of send-message (docs/extensions.md). */
export interface AnalysisField {
  readonly result: unknown
  readonly result_type: string
  readonly plan: string
}

export interface AnalysisAnswer {
  readonly text: string
  readonly analysis: AnalysisField | null
  readonly sources: ReadonlyArray<{ readonly retrieval_mode: string; readonly object_name: string }>
}

async function post<T>(api: ChatApi, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${api.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await api.token()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new HttpError(response.status, text)
  return JSON.parse(text) as T
}

/** A bot with `data_scientist_mode` (scope: the whole knowledge base); resolves with its id. */
export async function createAnalystChat(api: ChatApi): Promise<string> {
  const bot = await post<{ id: string }>(api, `/company/${api.companyId}/bot`, {
    label: 'Analyst',
    description: 'data-analysis benchmark',
    prompt: { name: 'analyst', prompt: 'You answer questions about tables with exact numbers.' },
    data_scientist_mode: true,
  })
  return bot.id
}

/** One question in its own chat of the analyst bot, with `data_analysis: true` over `documentIds`. */
export async function askAnalysis(
  api: ChatApi,
  botId: string,
  message: string,
  documentIds: readonly string[],
): Promise<AnalysisAnswer> {
  const chat = await post<{ id: string }>(api, '/chat', { title: 'databench', bot_id: botId })
  return post<AnalysisAnswer>(api, `/chat/${chat.id}/messages`, {
    message,
    data_analysis: true,
    document_ids: documentIds,
  })
}

/** The plain RAG answer: a new chat of the default bot, no data-analysis mode. */
export async function askPlain(api: ChatApi, message: string): Promise<string> {
  const chat = await post<{ id: string }>(api, '/chat', { title: 'databench baseline' })
  const answer = await post<{ text: string }>(api, `/chat/${chat.id}/messages`, { message })
  return answer.text
}
