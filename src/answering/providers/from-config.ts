import type { LlmConfig } from '../../config.js'
import type { ChatModel } from '../types.js'
import { OpenAiCompatibleChatModel } from './openai-compatible.js'

/** The configured LLM, or undefined when LANTERN_LLM_BASE_URL is unset (offline answering). */
export function chatModelFromConfig(llm: LlmConfig | undefined): ChatModel | undefined {
  if (!llm) return undefined
  return new OpenAiCompatibleChatModel({
    baseUrl: llm.baseUrl,
    apiKey: llm.apiKey,
    model: llm.model,
    timeoutMs: llm.timeoutMs,
  })
}
