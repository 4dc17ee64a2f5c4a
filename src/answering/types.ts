import type { DocumentSpan } from '../retrieval/context/span.js'
import type { AnalysedQuery, RetrievedChunk } from '../retrieval/types.js'

/** One earlier turn of the chat, oldest first. */
export interface ChatTurn {
  readonly actor: 'user' | 'assistant'
  readonly text: string
}

export interface AnswerInput {
  /** The user's message as written. */
  readonly question: string
  /** The question made standalone from the history (`rephrasing`). */
  readonly standaloneQuestion: string
  /**
   * The standalone question as retrieval searched it: without what only says how to write the
   * answer's figures (text/answer-format.ts). An answerer that cannot round or convert reads this;
   * the standalone question when absent.
   */
  readonly searchText?: string
  /** Numbered sources: `[n]` in the answer cites `sources[n - 1]`. */
  readonly sources: readonly RetrievedChunk[]
  /** ISO 639-1 language the answer's own words are written in. */
  readonly language: string
  readonly botPrompt: { readonly name: string; readonly prompt: string }
  readonly history: readonly ChatTurn[]
  /** The documents the question names (who, when), when retrieval worked it out. */
  readonly span?: DocumentSpan
  /** The question as retrieval read it, with each term's weight in the whole knowledge base. */
  readonly query?: AnalysedQuery
}

export interface Answer {
  readonly text: string
  /** 0-based indexes into `sources` that the answer cites, in first-cited order. */
  readonly cited: readonly number[]
  /** True when the knowledge base had nothing relevant enough ("not found"). */
  readonly notFound: boolean
}

/** Writes the answer: offline (extractive) by default, an LLM when configured. */
export interface Answerer {
  /** `onToken` receives the answer text incrementally (for Server-Sent Events). */
  answer(input: AnswerInput, onToken?: (text: string) => void): Promise<Answer>
}

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant'
  readonly content: string
}

/** An LLM behind an OpenAI-compatible chat-completions endpoint. */
export interface ChatModel {
  complete(
    messages: readonly ChatMessage[],
    options?: { readonly signal?: AbortSignal; readonly onToken?: (text: string) => void },
  ): Promise<string>
}
