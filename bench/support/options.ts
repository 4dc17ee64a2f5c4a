import { type ParseArgsConfig, parseArgs } from 'node:util'
import type { ServerOptions, ServerRuntime } from './server.js'

/** Options every ingestion benchmark takes. */
export interface CommonOptions {
  readonly runtime: ServerRuntime
  readonly workers: number
  readonly timeoutMs: number
  readonly keep: boolean
  readonly loader: 'STANDARD' | 'ADVANCED' | undefined
  /** LANTERN_PDF_TEXT of the service; undefined: its default (`auto`). */
  readonly pdfText: 'auto' | 'mutool' | 'pdfjs' | undefined
}

/** Parsed option values by name. */
export type Values = Record<string, string | boolean | undefined>

const COMMON = {
  server: { type: 'string', default: 'dist' },
  workers: { type: 'string', default: '2' },
  'timeout-min': { type: 'string' },
  loader: { type: 'string' },
  'pdf-text': { type: 'string' },
  keep: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const

export const COMMON_USAGE = `  --server dist|source   run the built service (default; "npm run build" first) or the TypeScript source
  --workers N            LANTERN_WORKERS of the service (default 2)
  --timeout-min M        overall time limit of the run
  --loader STANDARD|ADVANCED   loader_type sent with every upload (default: the service's default)
  --pdf-text auto|mutool|pdfjs LANTERN_PDF_TEXT of the service (default: the service's default, auto)
  --keep                 keep the temporary data folder (database, server.log)`

function positive(name: string, raw: string): number {
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got "${raw}"`)
  return value
}

/**
 * Parses the common options plus `extra`; prints `usage` and exits on --help, and exits with code
 * 2 on a bad option.
 */
export function parseOptions(
  usage: string,
  extra: NonNullable<ParseArgsConfig['options']>,
  defaultTimeoutMin: number,
): { common: CommonOptions; values: Values } {
  try {
    const values = parseArgs({ options: { ...COMMON, ...extra }, allowPositionals: false }).values as Values
    if (values.help) {
      console.log(usage)
      process.exit(0)
    }
    const server = String(values.server)
    if (server !== 'dist' && server !== 'source') throw new Error(`--server must be dist or source, got "${server}"`)
    const loader = values.loader === undefined ? undefined : String(values.loader).toUpperCase()
    if (loader !== undefined && loader !== 'STANDARD' && loader !== 'ADVANCED') {
      throw new Error(`--loader must be STANDARD or ADVANCED, got "${values.loader}"`)
    }
    const pdfText = values['pdf-text'] === undefined ? undefined : String(values['pdf-text'])
    if (pdfText !== undefined && pdfText !== 'auto' && pdfText !== 'mutool' && pdfText !== 'pdfjs') {
      throw new Error(`--pdf-text must be auto, mutool or pdfjs, got "${pdfText}"`)
    }
    const common: CommonOptions = {
      runtime: server,
      workers: positive('workers', String(values.workers)),
      timeoutMs: positive('timeout-min', String(values['timeout-min'] ?? defaultTimeoutMin)) * 60_000,
      keep: Boolean(values.keep),
      loader,
      pdfText,
    }
    return { common, values }
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`)
    process.exit(2)
  }
}

/** How an ingestion benchmark starts its service: the common options, request logs, `env` added. */
export function serverOptions(common: CommonOptions, env: Readonly<Record<string, string>> = {}): ServerOptions {
  return {
    runtime: common.runtime,
    workers: common.workers,
    keep: common.keep,
    logLevel: 'info',
    env: { ...(common.pdfText ? { LANTERN_PDF_TEXT: common.pdfText } : {}), ...env },
  }
}

/** The service settings a report line names. */
export function settingsLine(common: CommonOptions): string {
  return `${common.workers} workers; loader ${common.loader ?? 'service default'}; PDF text ${common.pdfText ?? 'service default (auto)'}`
}
