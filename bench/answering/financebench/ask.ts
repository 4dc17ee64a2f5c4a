import type { ChatApi } from '../../support/chat-api.js'
import { coversPage, type GoldKind, matchesGold } from '../../support/gold.js'
import { type Split, splitOf } from '../../support/split.js'
import { evidencePages, type Question } from './dataset.js'
import type { KnowledgeBase } from './knowledge-bases.js'

/** Where the evidence stood among the search extension's top 10 for a question. */
export interface SearchOutcome {
  readonly docHit: boolean
  readonly pageHit: boolean
}

/** How one question went in one run. */
export interface Outcome {
  readonly id: string
  readonly company: string
  /** The question's document (upstream name, whatever name it was uploaded under). */
  readonly docName: string
  readonly split: Split
  readonly type: string
  /** A source is the question's document (by document id, whatever name it was uploaded under). */
  readonly docHit: boolean
  /** A source of that document covers one of its evidence pages. */
  readonly pageHit: boolean
  readonly goldKind: GoldKind
  readonly goldHit: boolean
  /** Answered without sources (not small talk, no error): "not found". */
  readonly notFound: boolean
  readonly smallTalk: boolean
  /** Send-message round trip (the chat is created before the clock starts). */
  readonly ms: number
  readonly validatedAutodocs: boolean | null
  /** Automatic selection's `documents_filtered` holds the question's document. */
  readonly filteredHasDoc: boolean
  /** `doc_name` of each document automatic selection chose. */
  readonly filtered: readonly string[]
  /** Undefined when the run does not measure it. */
  readonly search: SearchOutcome | undefined
  /** `doc_name p.N` of each source. */
  readonly sources: readonly string[]
  readonly answer: string
  readonly error?: string
}

/** What a question is asked of. */
export interface AskContext {
  readonly chat: ChatApi
  readonly knowledgeBase: KnowledgeBase
  /** The bot of the chat; the company's default bot when undefined. */
  readonly botId?: string
  /**
   * The search diagnostic of this knowledge base, by question id: filled on first use, shared by
   * the runs that ask the same knowledge base (the search extension ignores the bot). Undefined:
   * not measured.
   */
  readonly searches?: Map<string, SearchOutcome>
}

async function searchOutcome(question: Question, context: AskContext, documentId: string | undefined) {
  const cached = context.searches?.get(question.financebench_id)
  if (cached || !context.searches) return cached
  const pages = evidencePages(question)
  const { hits } = await context.chat.search(question.question, 10)
  const fromDoc = hits.filter((hit) => hit.document_id === documentId)
  const outcome: SearchOutcome = {
    docHit: fromDoc.length > 0,
    pageHit: fromDoc.some((hit) => pages.some((page) => coversPage(hit.page_number, page))),
  }
  context.searches.set(question.financebench_id, outcome)
  return outcome
}

/** Asks `question` in a new chat and scores the answer. A failed request is an outcome with `error`. */
export async function askQuestion(question: Question, context: AskContext): Promise<Outcome> {
  const documentId = context.knowledgeBase.documentIds.get(question.doc_name)
  const docNameOf = new Map([...context.knowledgeBase.documentIds].map(([docName, id]) => [id, docName]))
  const pages = evidencePages(question)
  const base = {
    id: question.financebench_id,
    company: question.company,
    docName: question.doc_name,
    split: splitOf(question.company),
    type: question.question_type,
  }
  let t0 = performance.now()
  try {
    const chatId = await context.chat.createChat(question.financebench_id, context.botId)
    t0 = performance.now()
    const answer = await context.chat.send(chatId, question.question)
    const ms = performance.now() - t0
    const fromDoc = answer.sources.filter((source) => source.id === documentId)
    const gold = matchesGold(answer.text, question.answer)
    return {
      ...base,
      docHit: fromDoc.length > 0,
      pageHit: fromDoc.some((source) => pages.some((page) => coversPage(source.page_number, page))),
      goldKind: gold.kind,
      goldHit: gold.hit,
      notFound: answer.sources.length === 0 && !answer.small_talk,
      smallTalk: answer.small_talk,
      ms,
      validatedAutodocs: answer.validated_autodocs,
      filteredHasDoc: documentId !== undefined && answer.documents_filtered.includes(documentId),
      filtered: answer.documents_filtered.map((id) => docNameOf.get(id) ?? id),
      search: await searchOutcome(question, context, documentId),
      sources: answer.sources.map(
        (source) => `${docNameOf.get(source.id) ?? source.object_name} p.${source.page_number}`,
      ),
      answer: answer.text,
    }
  } catch (error) {
    return {
      ...base,
      docHit: false,
      pageHit: false,
      goldKind: matchesGold('', question.answer).kind,
      goldHit: false,
      notFound: false,
      smallTalk: false,
      ms: performance.now() - t0,
      validatedAutodocs: null,
      filteredHasDoc: false,
      filtered: [],
      search: undefined,
      sources: [],
      answer: '',
      error: (error as Error).message.slice(0, 300),
    }
  }
}

/**
 * Searches until the company's in-memory index answers (three searches in a row under a second,
 * at most a minute): the first query of a company starts loading it, and the store answers
 * meanwhile, which would otherwise land in the first questions' times.
 */
export async function warmUp(chat: ChatApi): Promise<void> {
  const until = Date.now() + 60_000
  for (let fast = 0; fast < 3 && Date.now() < until; ) {
    const t0 = performance.now()
    await chat.search('annual report', 10)
    fast = performance.now() - t0 < 1000 ? fast + 1 : 0
  }
}
