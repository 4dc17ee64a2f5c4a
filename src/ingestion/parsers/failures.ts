import { IngestError, ingestErrors } from '../errors.js'

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string'
}

/**
 * Any failure while parsing, as an IngestError: IngestErrors pass through, operating-system errors
 * (reading the local copy, temp files) are transient, and everything a library throws about the
 * content means the file is damaged — permanent.
 */
export function toIngestError(format: string, error: unknown): IngestError {
  if (error instanceof IngestError) return error
  const message = error instanceof Error ? error.message : String(error)
  if (isSystemError(error))
    return new IngestError(`could not read the ${format} file: ${message}`, false, { cause: error })
  return ingestErrors.corrupt(format, message.slice(0, 300), error)
}
