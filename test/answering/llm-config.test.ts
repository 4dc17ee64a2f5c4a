import { describe, expect, it } from 'vitest'
import { chatModelFromConfig } from '../../src/answering/providers/from-config.js'
import { OpenAiCompatibleChatModel } from '../../src/answering/providers/openai-compatible.js'
import { loadConfig } from '../../src/config.js'

describe('LANTERN_LLM_* configuration', () => {
  it('is off by default: offline answering, no chat model', () => {
    const config = loadConfig({})
    expect(config.llm).toBeUndefined()
    expect(chatModelFromConfig(config.llm)).toBeUndefined()
  })

  it('reads the endpoint, key, model and timeout (default 30000)', () => {
    const env = { LANTERN_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LANTERN_LLM_MODEL: 'llama3' }
    expect(loadConfig(env).llm).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'llama3',
      timeoutMs: 30_000,
    })
    const full = loadConfig({ ...env, LANTERN_LLM_API_KEY: 'sk-1', LANTERN_LLM_TIMEOUT_MS: '5000' })
    expect(full.llm).toMatchObject({ apiKey: 'sk-1', timeoutMs: 5000 })
    expect(chatModelFromConfig(full.llm)).toBeInstanceOf(OpenAiCompatibleChatModel)
  })

  it('rejects a missing model, a bad URL and a bad timeout, naming the variable', () => {
    expect(() => loadConfig({ LANTERN_LLM_BASE_URL: 'https://api.example/v1' })).toThrow(
      'LANTERN_LLM_MODEL is required when LANTERN_LLM_BASE_URL is set',
    )
    expect(() => loadConfig({ LANTERN_LLM_BASE_URL: 'not a url', LANTERN_LLM_MODEL: 'm' })).toThrow(
      /^LANTERN_LLM_BASE_URL must be a URL/,
    )
    expect(() => loadConfig({ LANTERN_LLM_BASE_URL: 'ftp://x/v1', LANTERN_LLM_MODEL: 'm' })).toThrow(
      /^LANTERN_LLM_BASE_URL must use http/,
    )
    expect(() => loadConfig({ LANTERN_LLM_TIMEOUT_MS: 'soon' })).toThrow(
      /^LANTERN_LLM_TIMEOUT_MS must be a whole number/,
    )
  })
})
