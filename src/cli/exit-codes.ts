import { ConfigError } from '../config.js'
import { AppError, type ErrorCode } from '../lib/errors.js'

/** Exit codes a script can rely on. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  config: 5,
  invalid: 6,
  unavailable: 7,
  /** `lantern ingest`: some files failed (upload refused, processing ended in ERROR, timed out). */
  partial: 8,
} as const

const BY_CODE: Partial<Record<ErrorCode, number>> = {
  not_found: EXIT.notFound,
  already_exists: EXIT.conflict,
  validation_failed: EXIT.invalid,
  invalid_reference: EXIT.invalid,
}

/** The exit code for an error thrown by a command. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage
  if (error instanceof CommandError) return error.exitCode
  if (error instanceof ConfigError) return EXIT.config
  if (error instanceof AppError) return BY_CODE[error.code] ?? EXIT.failure
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return EXIT.usage
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '3D000' || code === '28P01') return EXIT.unavailable
  return EXIT.failure
}

/** A command line that does not match any command or misses an argument. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** A failure the command has explained in its message (no stack trace), with the exit code to use. */
export class CommandError extends Error {
  override readonly name = 'CommandError'

  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message)
  }
}
