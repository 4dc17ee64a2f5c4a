import type { ChatModel } from '../answering/types.js'
import { LlmPlanner, type RepairingPlanner } from './llm-planner.js'
import type { PlanOutcome, QuestionPlanner, TableSchema } from './types.js'

/** Declines every question: the planner when no offline question parser is available. */
export const decliningPlanner: QuestionPlanner = {
  async plan(_question, _tables, language) {
    return {
      kind: 'declined',
      reason:
        language === 'fr'
          ? "aucun analyseur de questions n'est disponible dans ce service"
          : 'no question parser is available in this service',
    }
  },
}

/**
 * The LLM planner, with the offline planner behind it when the model cannot be reached (network
 * error, timeout): a question is still answered offline rather than failing.
 */
export class LlmWithOfflineFallback implements RepairingPlanner {
  constructor(
    private readonly llm: RepairingPlanner,
    private readonly offline: QuestionPlanner,
    private readonly onError?: (error: unknown) => void,
  ) {}

  async plan(question: string, tables: readonly TableSchema[], language: string): Promise<PlanOutcome> {
    try {
      return await this.llm.plan(question, tables, language)
    } catch (error) {
      this.onError?.(error)
      return this.offline.plan(question, tables, language)
    }
  }

  async repair(
    question: string,
    tables: readonly TableSchema[],
    language: string,
    failedSql: string,
    error: string,
  ): Promise<PlanOutcome> {
    try {
      return await this.llm.repair(question, tables, language, failedSql, error)
    } catch (failure) {
      this.onError?.(failure)
      return { kind: 'declined', reason: error }
    }
  }
}

/** The planner data-analysis mode uses: the LLM when one is configured, else the offline question parser. */
export function choosePlanner(
  offline: QuestionPlanner,
  model: ChatModel | undefined,
  options: { readonly timeoutMs?: number; readonly onError?: (error: unknown) => void } = {},
): QuestionPlanner {
  if (!model) return offline
  return new LlmWithOfflineFallback(new LlmPlanner(model, options.timeoutMs), offline, options.onError)
}
