import { extractKeywords } from '../../answering/keywords.js'
import { rephrase } from '../../answering/rephrase.js'
import { selectDocuments, selectionRuns } from '../../answering/selection.js'
import { detectSmallTalk, smallTalkReply } from '../../answering/small-talk.js'
import type { Answerer, ChatTurn } from '../../answering/types.js'
import { errors } from '../../lib/errors.js'
import type { DocumentSpan } from '../../retrieval/context/span.js'
import type { AnalysedQuery, ExplainingRetriever, ResolvedScope, RetrievedChunk } from '../../retrieval/types.js'
import type { BotRecord } from '../../storage/ports/bots.js'
import type { StoredSource } from '../../storage/ports/messages.js'
import type { Repositories } from '../../storage/store.js'
import { DEFAULT_LANGUAGE } from '../../text/analysis.js'
import { withoutAnswerFormat } from '../../text/answer-format.js'
import { AUTOMATIC_LOCALE } from '../../text/locales.js'
import { tagNamesOf } from '../tags/tag-names.js'
import { type QuestionContext, type ScopeReport, type Turn, turnOf } from './turn.js'

/** Chunks handed to the answerer. */
export const RETRIEVAL_LIMIT = 8
/** For a question over several documents: the most documents searched one by one, and chunks taken from each. */
const MAX_SPREAD_DOCUMENTS = 8
const SPREAD_CHUNKS = 2
/** For a question that names one document best (its subject's report of the period asked for): chunks taken from it. */
const NAMED_CHUNKS = 4
/** Cap on the bot's default documents, in tokens, all together (DESIGN §4). */
export const DEFAULT_DOCUMENTS_MAX_TOKENS = 4000

export interface TurnInput extends QuestionContext {
  /** The message's `auto_document_selector`, if given. */
  readonly autoDocumentSelector: boolean | undefined
  /** Earlier messages of the chat, oldest first. */
  readonly history: readonly ChatTurn[]
}

export interface ConversationDeps {
  readonly retriever: ExplainingRetriever
  readonly answerer: Answerer
}

/** First page of `3`, `3-4`: a number; null when the source has no page. */
export function firstPage(pageNumber: string | null): number | null {
  const match = pageNumber?.match(/\d+/)
  return match ? Number(match[0]) : null
}

/**
 * The question pipeline (DESIGN §2 "Question"), within the scope and languages the caller worked
 * out for the turn: small-talk gate → rephrasing with the previous question → the text to search
 * (without how to write the answer's figures) and its keywords → the documents the question names
 * (its span, from the cards) → optional automatic document selection
 * → retrieval (each named document too, for a trend or a comparison) → answer, with the bot's
 * default documents given whole. Reads only; the caller stores the result.
 */
export class Conversation {
  constructor(private readonly deps: ConversationDeps) {}

  async respond(repos: Repositories, input: TurnInput, onToken?: (text: string) => void): Promise<Turn> {
    const { bot, companyId } = input
    const botScope = input.scope
    const scope = await this.scopeReport(repos, bot, botScope)

    const preferred = bot.locale === AUTOMATIC_LOCALE ? undefined : bot.locale
    const smallTalk = detectSmallTalk(input.message, preferred)
    if (smallTalk) {
      const text = smallTalkReply(smallTalk.kind, preferred ?? smallTalk.language)
      onToken?.(text)
      return turnOf(input.message, scope, { smallTalk: true, text })
    }

    const questionLanguage = input.languages.question
    const previous = [...input.history].reverse().find((turn) => turn.actor === 'user')?.text
    const rephrasing = rephrase(input.message, previous, questionLanguage)
    // What is searched for: not how to write the figures (an LLM still reads the whole question).
    const searchText = withoutAnswerFormat(rephrasing, questionLanguage)
    const keywords = extractKeywords(searchText, questionLanguage)

    const { retriever } = this.deps
    const span = await retriever.documentSpan(companyId, searchText, botScope.documentIds)
    let searchScope = botScope
    let documentsFiltered: string[] = []
    let validatedAutodocs: boolean | null = null
    if (selectionRuns(bot.autoDocumentSelector, input.autoDocumentSelector)) {
      documentsFiltered = await selectDocuments(repos, companyId, {
        scope: botScope,
        question: searchText,
        language: questionLanguage,
        guidance: bot.filters.defaultAutoDocuments,
        span,
        context: await retriever.documentContext(companyId),
      })
      validatedAutodocs = documentsFiltered.length > 0
      if (validatedAutodocs) searchScope = { documentIds: documentsFiltered }
    }

    const { query, chunks: retrieved } = await this.retrieve(companyId, searchText, searchScope, span)
    const defaults = await this.defaultDocuments(repos, bot)
    const all = [...retrieved, ...defaults]
    const answer = await this.deps.answerer.answer(
      {
        question: input.message,
        standaloneQuestion: rephrasing,
        searchText,
        sources: all,
        language: input.languages.answer,
        botPrompt: bot.prompt,
        history: input.history,
        span,
        query,
      },
      onToken,
    )

    const cited = answer.notFound ? [] : answer.cited.filter((index) => index >= 0 && index < all.length)
    const renumber = new Map(cited.map((index, position) => [index + 1, position + 1]))
    const text = answer.text.replace(/\[(\d+)\]/g, (whole, n: string) => {
      const to = renumber.get(Number(n))
      return to === undefined ? whole : `[${to}]`
    })
    const chosen = cited.map((index) => all[index] as RetrievedChunk)
    const lookups = defaults.filter((chunk) => !chosen.includes(chunk))
    const cites = [...chosen, ...lookups]
    const tagNames = await tagNamesOf(
      repos,
      companyId,
      cites.map((chunk) => chunk.documentId),
    )
    return turnOf(input.message, scope, {
      rephrasing,
      keywords,
      notFound: answer.notFound,
      text,
      sources: cites.map((chunk) => toSource(chunk, tagNames.get(chunk.documentId) ?? [])),
      documentsFiltered,
      validatedAutodocs,
    })
  }

  /**
   * The chunks the answerer reads: the best RETRIEVAL_LIMIT of the scope; for a question that spans
   * several documents (a trend, a comparison), also the best SPREAD_CHUNKS of each of them, so that
   * every period or subject asked about can be quoted; for one that names a document best, also
   * its best NAMED_CHUNKS.
   */
  private async retrieve(
    companyId: string,
    text: string,
    scope: ResolvedScope,
    span: DocumentSpan,
  ): Promise<{ query: AnalysedQuery; chunks: RetrievedChunk[] }> {
    const { retriever } = this.deps
    const { query, chunks } = await retriever.retrieve(companyId, { text, scope, limit: RETRIEVAL_LIMIT, span })
    const named = namedDocuments(span)
    if (named.length === 0) return { query, chunks }
    const allowed = scope.documentIds ? new Set(scope.documentIds) : null
    const seen = new Set(chunks.map((chunk) => chunk.chunkId))
    for (const documentId of named) {
      if (allowed && !allowed.has(documentId)) continue
      const own = await retriever.search(companyId, {
        text,
        scope: { documentIds: [documentId] },
        limit: span.spread ? SPREAD_CHUNKS : NAMED_CHUNKS,
        span,
      })
      for (const chunk of own) {
        if (seen.has(chunk.chunkId)) continue
        seen.add(chunk.chunkId)
        chunks.push(chunk)
      }
    }
    return { query, chunks }
  }

  private async scopeReport(repos: Repositories, bot: BotRecord, scope: ResolvedScope): Promise<ScopeReport> {
    const folders = await repos.knowledgeBase.findByNames(bot.companyId, bot.filters.paths)
    const byName = new Map(folders.filter((o) => o.kind === 'folder').map((o) => [o.objectName, o.id]))
    return {
      documentIds: scope.documentIds ?? [],
      paths: bot.filters.paths.flatMap((path) => {
        const id = byName.get(path)
        return id === undefined ? [] : [{ id, objectName: path }]
      }),
      tags: [...bot.filters.tags],
    }
  }

  /** The bot's default documents, each whole as one source; 400 when together they pass the cap. */
  private async defaultDocuments(repos: Repositories, bot: BotRecord): Promise<RetrievedChunk[]> {
    if (bot.filters.defaultDocuments.length === 0) return []
    const found = await repos.knowledgeBase.findByNames(bot.companyId, bot.filters.defaultDocuments)
    const byName = new Map(found.map((object) => [object.objectName, object]))
    const chunks: RetrievedChunk[] = []
    let tokens = 0
    for (const path of bot.filters.defaultDocuments) {
      const document = byName.get(path)
      if (document?.kind !== 'document' || document.processing.state !== 'PROCESSED') continue
      const parts = await repos.chunks.listForDocument(bot.companyId, document.id)
      if (parts.length === 0) continue
      tokens += parts.reduce((sum, part) => sum + part.tokenCount, 0)
      if (tokens > DEFAULT_DOCUMENTS_MAX_TOKENS) {
        throw errors.validation(
          `the bot's default documents hold more than ${DEFAULT_DOCUMENTS_MAX_TOKENS} tokens together; remove some from filters.default_documents`,
        )
      }
      const pages = parts.map((part) => part.pageNumber).filter((page): page is string => page !== null)
      const pageNumber =
        pages.length === 0
          ? null
          : pages[0] === pages.at(-1)
            ? (pages[0] ?? null)
            : `${firstPage(pages[0] ?? null)}-${pages.at(-1)?.match(/\d+(?!.*\d)/)?.[0] ?? ''}`
      chunks.push({
        chunkId: `lookup:${document.id}`,
        documentId: document.id,
        objectName: document.objectName,
        filename: document.objectName.slice(document.objectName.lastIndexOf('/') + 1),
        documentType: document.documentType,
        description: document.description,
        card: document.card,
        idx: 0,
        text: parts.map((part) => part.text).join('\n'),
        pageNumber,
        rowIdx: null,
        metadata: {},
        language: parts[0]?.language ?? DEFAULT_LANGUAGE,
        score: 0,
        usageScore: 1,
      })
    }
    return chunks
  }
}

/**
 * The documents searched one by one besides the whole scope: each document of a trend or a
 * comparison; else the one the question names best, when it names one (a subject's only document,
 * or its report of the period asked for), so that the filing named is read even where another
 * filing's look-alike passages fill the best RETRIEVAL_LIMIT.
 */
export function namedDocuments(span: DocumentSpan): readonly string[] {
  if (span.spread) return span.documents.slice(0, MAX_SPREAD_DOCUMENTS)
  if (span.documents.length === 1 || span.periodScores.size > 0) return span.documents.slice(0, 1)
  return []
}

function toSource(chunk: RetrievedChunk, tags: readonly string[]): StoredSource {
  const lookup = chunk.chunkId.startsWith('lookup:')
  return {
    documentId: chunk.documentId,
    objectName: chunk.objectName,
    filename: chunk.filename,
    description: chunk.description,
    documentType: chunk.documentType,
    page: firstPage(chunk.pageNumber),
    pageNumber: chunk.pageNumber,
    rowIdx: chunk.rowIdx,
    chunkIdx: lookup ? null : chunk.idx,
    content: chunk.text,
    tags: [...tags],
    usageScore: Math.min(1, Math.max(0, chunk.usageScore)),
    retrievalMode: lookup ? 'lookup' : 'similarity',
  }
}
