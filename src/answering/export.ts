import { type Timestamp, toExportTime } from '../lib/clock.js'
import type { AnswerLogger } from './llm-answerer.js'
import { OutputGuard } from './output-guard.js'
import { PHRASES } from './phrases.js'
import { summaryMessages } from './prompts.js'
import type { ChatModel, ChatTurn } from './types.js'

export type ExportType = 'text' | 'markdown'

/** One message as the transcript shows it. */
export interface TranscriptMessage {
  readonly actor: 'user' | 'assistant'
  readonly text: string
  readonly createdAt: Timestamp
  readonly sources: ReadonlyArray<{ readonly filename: string; readonly page: number | null }>
}

export interface Transcript {
  readonly title: string
  readonly chatCreatedAt: Timestamp
  readonly exportedAt: Timestamp
  readonly summary: string
  /** Oldest first. */
  readonly messages: readonly TranscriptMessage[]
}

const AUTHOR = { user: 'User', assistant: 'Assistant' } as const
const MAX_SUMMARY_SENTENCES = 5

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** `> ` before every line; an empty line stays inside the quote as `>`. */
function quote(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
}

/** `leave.pdf, page 3` per distinct (file, page), in citation order. */
function sourceLines(sources: TranscriptMessage['sources']): string[] {
  const seen = new Set<string>()
  const lines: string[] = []
  for (const source of sources) {
    const line = source.page === null ? `- ${source.filename}` : `- ${source.filename}, page ${source.page}`
    if (!seen.has(line)) lines.push(line)
    seen.add(line)
  }
  return lines
}

function heading(text: string, level: 1 | 2 | 3, type: ExportType): string[] {
  if (type === 'markdown') return [`${'#'.repeat(level)} ${text}`]
  if (level === 3) return [text]
  return [text, (level === 1 ? '=' : '-').repeat(Math.max(3, [...text].length))]
}

/**
 * The spec 4.3 transcript. Markdown: `# Title`, `## Summary`, `## Chat transcription:`, one
 * `### Author — time` per message. Text: the same structure with setext underlines (`=` for the
 * title, `-` for sections) and message headings as plain `Author — time` lines. Both: the creation
 * and export times on their own lines (`YYYY-MM-DD hh:mm:ss`, then a label), a `---` separator,
 * message text as a `> ` quote, and the sources of each answer listed below it.
 */
export function renderTranscript(transcript: Transcript, type: ExportType): string {
  const lines: string[] = [
    ...heading(oneLine(transcript.title), 1, type),
    '',
    `${toExportTime(transcript.chatCreatedAt)} (chat created)`,
    `${toExportTime(transcript.exportedAt)} (exported)`,
    '',
    ...heading('Summary', 2, type),
    '',
    transcript.summary.trim(),
    '',
    '---',
    '',
    ...heading('Chat transcription:', 2, type),
  ]
  for (const message of transcript.messages) {
    lines.push('', ...heading(`${AUTHOR[message.actor]} — ${toExportTime(message.createdAt)}`, 3, type))
    if (type === 'markdown') lines.push('')
    lines.push(...quote(message.text))
    const sources = message.actor === 'assistant' ? sourceLines(message.sources) : []
    if (sources.length > 0) lines.push('', 'Sources:', ...sources)
  }
  return `${lines.join('\n')}\n`
}

/** The answerer's opening lines ("Here is what the knowledge base says:"), in every language: framing, not content. */
const FRAMING_LINES = new Set(Object.values(PHRASES).map((phrases) => phrases.intro))

/** Sentences of a message, line by line (a bullet is its own sentence), without citation marks or framing lines. */
function sentences(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => !FRAMING_LINES.has(line))
    .flatMap((line) =>
      oneLine(line.replace(/^[-*•]\s+/, '').replace(/\s*\[\d+(?:\s*[,;]\s*\d+)*\]/g, '')).split(/(?<=[.!?。！？])\s+/),
    )
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0)
}

/**
 * Offline summary: the first question, then the first content sentence of each answer (framing
 * and citation marks removed, duplicates skipped), at most five sentences in all.
 */
export function extractiveSummary(turns: readonly ChatTurn[]): string {
  const picked: string[] = []
  const firstQuestion = turns.find((turn) => turn.actor === 'user')
  if (firstQuestion) picked.push(oneLine(firstQuestion.text))
  for (const turn of turns) {
    if (picked.length >= MAX_SUMMARY_SENTENCES) break
    if (turn.actor !== 'assistant') continue
    const first = sentences(turn.text)[0]
    if (first && !picked.includes(first)) picked.push(first)
  }
  return picked.join(' ')
}

/** Writes the `summary_type: ai` summary of a chat. */
export interface ChatSummarizer {
  summarize(turns: readonly ChatTurn[]): Promise<string>
}

export const offlineSummarizer: ChatSummarizer = {
  summarize: async (turns) => extractiveSummary(turns),
}

/**
 * Summaries by an LLM, with the conversation fenced as data and the output guarded (no image, no
 * URL absent from the conversation); the offline summary on any failure.
 */
export class LlmSummarizer implements ChatSummarizer {
  constructor(
    private readonly model: ChatModel,
    private readonly logger?: AnswerLogger,
  ) {}

  async summarize(turns: readonly ChatTurn[]): Promise<string> {
    if (turns.length === 0) return ''
    try {
      const raw = await this.model.complete(summaryMessages(turns))
      const text = new OutputGuard(turns.map((turn) => turn.text).join('\n')).guard(raw).trim()
      if (text === '') throw new Error('the model returned an empty summary')
      return text
    } catch (error) {
      this.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'LLM summary failed; summarising offline',
      )
      return extractiveSummary(turns)
    }
  }
}
