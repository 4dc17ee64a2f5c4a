import type { ResolvedScope } from '../../retrieval/types.js'
import type { BotRecord } from '../../storage/ports/bots.js'
import type { StoredSource } from '../../storage/ports/messages.js'
import type { QuestionLanguages } from '../../text/answer-language.js'

/**
 * One question, with what send-message works out once for it and hands to whichever path answers
 * (data analysis or the conversation): the scope and the languages.
 */
export interface QuestionContext {
  readonly companyId: string
  readonly bot: BotRecord
  readonly message: string
  /** The documents the question may see: the bot's scope narrowed by the message's filters. */
  readonly scope: ResolvedScope
  readonly languages: QuestionLanguages
}

/** The bot scope as send-message reports it in `tags`. */
export interface ScopeReport {
  readonly documentIds: readonly string[]
  readonly paths: readonly { readonly id: string; readonly objectName: string }[]
  readonly tags: readonly string[]
}

/** Everything one answered question produced, before it is stored. */
export interface Turn {
  readonly question: string
  readonly rephrasing: string
  readonly keywords: readonly string[]
  readonly smallTalk: boolean
  readonly notFound: boolean
  readonly text: string
  /** Cited chunks in citation order (`[n]` is `sources[n - 1]`), then the default documents. */
  readonly sources: readonly StoredSource[]
  /** Documents automatic selection chose; empty when it did not run. */
  readonly documentsFiltered: readonly string[]
  /** Null when automatic selection did not run; else whether it found documents. */
  readonly validatedAutodocs: boolean | null
  readonly scope: ScopeReport
}

/**
 * A turn answering `question` within `scope`: what the answering path found, over the defaults of a
 * turn that neither rephrased, retrieved, selected nor cited anything.
 */
export function turnOf(
  question: string,
  scope: ScopeReport,
  found: Partial<Omit<Turn, 'question' | 'scope'>> & Pick<Turn, 'text'>,
): Turn {
  return {
    question,
    rephrasing: question.trim(),
    keywords: [],
    smallTalk: false,
    notFound: false,
    sources: [],
    documentsFiltered: [],
    validatedAutodocs: null,
    scope,
    ...found,
  }
}
