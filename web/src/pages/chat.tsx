import { useEffect, useRef, useState } from 'preact/hooks'
import { MessageView } from '../components/answer'
import { Pager } from '../components/pager'
import { PathPicker } from '../components/path-picker'
import { Problem } from '../components/problem'
import { SourceViewer } from '../components/source-viewer'
import { useWorkspace } from '../context'
import { saveFile } from '../save-file'
import { t } from '../strings'
import type { Bot, Chat, Message, Source, StoredMessage } from '../types'

const HISTORY = 100
/** Chats listed per page. */
const CHATS = 20

export function ChatPage() {
  const { api, companyId, defaultBotId } = useWorkspace()
  const [chats, setChats] = useState<Chat[]>([])
  const [bots, setBots] = useState<Bot[]>([])
  const [archived, setArchived] = useState(false)
  const [offset, setOffset] = useState(0)
  const [current, setCurrent] = useState<Chat | null>(null)
  const [error, setError] = useState<unknown>(null)

  async function loadChats() {
    try {
      setChats(
        await api.call(api.client.GET('/apif/v2/chat', { params: { query: { archived, offset, limit: CHATS } } })),
      )
    } catch (caught) {
      setError(caught)
    }
  }

  useEffect(() => {
    void loadChats()
  }, [archived, offset])
  useEffect(() => {
    api
      .all((offset, limit) =>
        api.client.GET('/apif/v2/company/{company_id}/bot', {
          params: { path: { company_id: companyId }, query: { offset, limit } },
        }),
      )
      .then(setBots, setError)
  }, [])

  async function create(event: Event) {
    event.preventDefault()
    const element = event.currentTarget as HTMLFormElement
    const form = new FormData(element)
    try {
      const chat = await api.call(
        api.client.POST('/apif/v2/chat', {
          body: { title: String(form.get('title') || t.chat.untitled), bot_id: String(form.get('bot_id')) },
        }),
      )
      setCurrent(chat)
      element.reset()
      await loadChats()
    } catch (caught) {
      setError(caught)
    }
  }

  async function change(chat: Chat, patch: Partial<Chat>) {
    try {
      await api.call(
        api.client.PATCH('/apif/v2/chat/{chat_id}', { params: { path: { chat_id: chat.id } }, body: patch }),
      )
      if (patch.archived !== undefined && current?.id === chat.id) setCurrent(null)
      await loadChats()
    } catch (caught) {
      setError(caught)
    }
  }

  async function remove(chat: Chat) {
    if (!confirm(t.chat.confirmDelete(chat.title))) return
    try {
      await api.call(api.client.DELETE('/apif/v2/chat/{chat_id}', { params: { path: { chat_id: chat.id } } }))
      if (current?.id === chat.id) setCurrent(null)
      await loadChats()
    } catch (caught) {
      setError(caught)
    }
  }

  return (
    <div class="chat-layout">
      <aside class="chat-list" aria-label={t.chat.chats}>
        <h2>{t.chat.chats}</h2>
        <form onSubmit={create} class="new-chat">
          <label>
            {t.chat.bot}
            <select name="bot_id" required>
              {bots.map((bot) => (
                <option value={bot.id} selected={bot.id === defaultBotId} key={bot.id}>
                  {bot.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t.chat.title}
            <input name="title" placeholder={t.chat.untitled} maxLength={200} />
          </label>
          <button type="submit" class="primary">
            {t.chat.create}
          </button>
        </form>
        <label class="inline">
          <input
            type="checkbox"
            checked={archived}
            onChange={() => {
              setArchived(!archived)
              setOffset(0)
            }}
          />
          {t.chat.archived}
        </label>
        {chats.length === 0 && <p class="hint">{t.chat.empty}</p>}
        <ul>
          {chats.map((chat) => (
            <li key={chat.id} class={current?.id === chat.id ? 'selected' : ''}>
              <button type="button" class="link chat-title" onClick={() => setCurrent(chat)}>
                {chat.title}
              </button>
              <span class="row-actions">
                <button
                  type="button"
                  class="small"
                  onClick={() => {
                    const title = prompt(t.chat.rename, chat.title)
                    if (title) void change(chat, { title })
                  }}
                >
                  {t.chat.rename}
                </button>
                <button type="button" class="small" onClick={() => change(chat, { archived: !chat.archived })}>
                  {chat.archived ? t.chat.unarchive : t.chat.archive}
                </button>
                <button type="button" class="small danger" onClick={() => remove(chat)}>
                  {t.chat.delete}
                </button>
              </span>
            </li>
          ))}
        </ul>
        <Pager offset={offset} limit={CHATS} count={chats.length} onChange={setOffset} />
        <Problem error={error} />
      </aside>
      {current ? (
        <Conversation chat={current} bot={bots.find((bot) => bot.id === current.bot_id)} key={current.id} />
      ) : (
        <section class="conversation empty">
          <p class="hint">{t.chat.pick}</p>
        </section>
      )}
    </div>
  )
}

function Conversation({ chat, bot }: { chat: Chat; bot: Bot | undefined }) {
  const { api } = useWorkspace()
  const [messages, setMessages] = useState<Message[]>([])
  const [streaming, setStreaming] = useState<string | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [opened, setOpened] = useState<Source | null>(null)
  const end = useRef<HTMLDivElement>(null)

  useEffect(() => {
    api
      .call(
        api.client.GET('/apif/v2/chat/{chat_id}/messages', {
          params: { path: { chat_id: chat.id }, query: { size: HISTORY } },
        }),
      )
      .then((body) => setMessages(body.history.map(fromHistory)), setError)
  }, [chat.id])
  useEffect(() => end.current?.scrollIntoView({ block: 'end' }), [messages, streaming])

  async function ask(event: Event) {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    const message = String(data.get('message') ?? '').trim()
    if (!message) return
    setError(null)
    setMessages((all) => [...all, { actor: 'user', text: message }])
    setStreaming('')
    form.reset()
    try {
      const body: Record<string, unknown> = { message }
      if (data.get('auto') === 'on') body.auto_document_selector = true
      const narrowed = data.getAll('filter').map(String)
      if (narrowed.length > 0) body.filters = { paths: narrowed }
      if (bot?.data_scientist_mode) {
        // Data analysis only when asked for, over the tables chosen: never guessed.
        const tables = data.getAll('table').map(String)
        body.data_analysis = data.get('analysis') === 'on'
        if (body.data_analysis) body.document_ids = tables
      }
      const answer = await api.ask<Message>(chat.id, body, (text) => setStreaming((sofar) => (sofar ?? '') + text))
      setMessages((all) => [...all, { ...answer, actor: 'assistant' }])
    } catch (caught) {
      setError(caught)
    } finally {
      setStreaming(null)
    }
  }

  async function exportAs(type: 'text' | 'markdown') {
    try {
      const text = await api.call(
        api.client.POST('/apif/v2/chat/{chat_id}/messages/export', {
          params: { path: { chat_id: chat.id } },
          body: { export_type: type, title: chat.title, summary_type: 'ai' },
          parseAs: 'text',
        }),
      )
      saveFile(new Blob([text], { type: 'text/plain' }), `${chat.title}.${type === 'markdown' ? 'md' : 'txt'}`)
    } catch (caught) {
      setError(caught)
    }
  }

  return (
    <section class="conversation" aria-label={chat.title}>
      <header class="conversation-head">
        <h2>{chat.title}</h2>
        <span class="row-actions">
          {t.chat.export}:
          <button type="button" class="small" onClick={() => exportAs('text')}>
            {t.chat.exportText}
          </button>
          <button type="button" class="small" onClick={() => exportAs('markdown')}>
            {t.chat.exportMarkdown}
          </button>
        </span>
      </header>
      <div class="messages" aria-live="polite">
        {messages.map((message, i) => (
          <MessageView message={message} messageKey={`m${i}`} onOpen={setOpened} key={`${i}-${message.actor}`} />
        ))}
        {streaming !== null && (
          <article class="message assistant streaming" aria-busy="true">
            <p>{streaming || t.chat.thinking}</p>
          </article>
        )}
        <div ref={end} />
      </div>
      <Problem error={error} />
      <form class="composer" onSubmit={ask}>
        <label class="visually-hidden" for="question">
          {t.chat.ask}
        </label>
        <textarea id="question" name="message" rows={2} required placeholder={t.chat.ask} maxLength={10_000} />
        {bot?.data_scientist_mode && (
          <PathPicker
            name="table"
            kind="file"
            sends="id"
            roots={bot.filters?.paths ?? []}
            accept={(path) => TABLE_FILE.test(path)}
            legend={
              <label class="inline">
                <input type="checkbox" name="analysis" />
                {t.chat.dataAnalysis}
              </label>
            }
          />
        )}
        {bot?.manual_filters && (
          <PathPicker name="filter" kind="file" sends="id" roots={bot.filters?.paths ?? []} legend={t.chat.narrow} />
        )}
        {bot?.auto_document_selector === 'choose' && (
          <label class="inline">
            <input type="checkbox" name="auto" />
            {t.chat.autoSelect}
          </label>
        )}
        <button type="submit" class="primary" disabled={streaming !== null}>
          {t.chat.send}
        </button>
      </form>
      {opened && <SourceViewer source={opened} onClose={() => setOpened(null)} />}
    </section>
  )
}

const TABLE_FILE = /\.(csv|tsv|xlsx|xls|xlsb|ods)$/i

/**
 * A message of the chat's history as the console shows it. The history keeps less of a source
 * than the answer gave (spec 2.6: file name, page, the passage): no document id, so no opening.
 */
function fromHistory(message: StoredMessage): Message {
  return {
    actor: message.actor === 'user' ? 'user' : 'assistant',
    text: message.text,
    sources: message.sources.map((source) => ({
      id: '',
      object_name: source.filename,
      filename: source.filename,
      description: source.description,
      document_type: '',
      page_number: source.page > 0 ? String(source.page) : '',
      row_idx: null,
      chunk_idx: null,
      chunk_content: source.page_content,
      usage_score: source.usage_score,
      retrieval_mode: '',
    })),
  }
}
