import { OutputGuard, repeatsPrompt } from './output-guard.js'
import { answerMessages, answerRules } from './prompts.js'
import type { Answer, Answerer, AnswerInput, ChatModel } from './types.js'

/** Where the answerer reports a fallback; pino loggers fit. */
export interface AnswerLogger {
  warn(details: Record<string, unknown>, message: string): void
}

export interface LlmAnswererDeps {
  readonly model: ChatModel
  /** Answers when the model fails, times out or misbehaves (the offline answerer). */
  readonly fallback: Answerer
  readonly logger?: AnswerLogger
}

/** The model repeated the hidden prompt; its answer is discarded. */
class PromptLeakError extends Error {
  override readonly name = 'PromptLeakError'
}

/** `[1]`, `[2, 3]`, `[2][3]` → 0-based indexes in first-cited order; numbers out of range are ignored. */
export function citedSources(text: string, sourceCount: number): number[] {
  const cited: number[] = []
  for (const match of text.matchAll(/\[(\d+(?:\s*[,;]\s*\d+)*)\]/g)) {
    for (const part of (match[1] ?? '').split(/[,;]/)) {
      const n = Number(part.trim())
      if (Number.isInteger(n) && n >= 1 && n <= sourceCount && !cited.includes(n - 1)) cited.push(n - 1)
    }
  }
  return cited
}

/**
 * Forwards streamed text to `onToken` a whole line at a time, guarded, so no image or foreign URL
 * ever reaches the client, even for a moment; stops at the first line that repeats the prompt.
 */
class GuardedStream {
  private pending = ''

  constructor(
    private readonly guard: OutputGuard,
    private readonly promptLines: readonly string[],
    private readonly onToken: (text: string) => void,
  ) {}

  push(token: string): void {
    this.pending += token
    let newline = this.pending.indexOf('\n')
    while (newline >= 0) {
      this.emit(this.pending.slice(0, newline), '\n')
      this.pending = this.pending.slice(newline + 1)
      newline = this.pending.indexOf('\n')
    }
  }

  end(): void {
    if (this.pending !== '') this.emit(this.pending, '')
    this.pending = ''
  }

  private emit(line: string, ending: string): void {
    if (repeatsPrompt(line, this.promptLines)) throw new PromptLeakError('the model repeated its prompt')
    const guarded = this.guard.guardLine(line)
    if (guarded !== '' || ending !== '') this.onToken(guarded + ending)
  }
}

/**
 * Answers with an LLM from numbered, fenced sources. Guarantees: the answer carries no image and
 * no URL absent from the sources, never a line of the hidden prompt, and cites only existing
 * sources. With no sources, or when the model fails in any way, the fallback answers instead (and
 * the failure is logged); when streaming failed midway, the fallback's tokens follow the lines
 * already sent, and the returned Answer is the fallback's.
 */
export class LlmAnswerer implements Answerer {
  constructor(private readonly deps: LlmAnswererDeps) {}

  async answer(input: AnswerInput, onToken?: (text: string) => void): Promise<Answer> {
    if (input.sources.length === 0) return this.deps.fallback.answer(input, onToken)
    const guard = new OutputGuard(input.sources.map((source) => source.text).join('\n'))
    const promptLines = [...answerRules(input.language), ...input.botPrompt.prompt.split('\n')]
    const messages = answerMessages({
      botPrompt: input.botPrompt,
      language: input.language,
      history: input.history,
      question: input.standaloneQuestion || input.question,
      sources: input.sources,
    })
    try {
      const stream = onToken ? new GuardedStream(guard, promptLines, onToken) : undefined
      const raw = await this.deps.model.complete(messages, stream ? { onToken: (token) => stream.push(token) } : {})
      stream?.end()
      const lines = raw.split('\n')
      if (lines.some((line) => repeatsPrompt(line, promptLines)))
        throw new PromptLeakError('the model repeated its prompt')
      const text = guard.guard(raw).trim()
      if (text === '') throw new Error('the model returned an empty answer')
      const cited = citedSources(text, input.sources.length)
      return { text, cited, notFound: cited.length === 0 }
    } catch (error) {
      this.deps.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'LLM answer failed; answering offline',
      )
      return this.deps.fallback.answer(input, onToken)
    }
  }
}
