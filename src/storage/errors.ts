import { AppError, errors } from '../lib/errors.js'

interface DriverError {
  code?: unknown
  constraint?: unknown
  message?: unknown
}

function isUniqueViolation(error: DriverError): boolean {
  // pg: 23505; better-sqlite3: SQLITE_CONSTRAINT_UNIQUE / SQLITE_CONSTRAINT_PRIMARYKEY
  return (
    error.code === '23505' || error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  )
}

/**
 * Runs a write that may collide with a unique constraint and reports a collision as
 * `already_exists` for `kind`/`name`; every other driver error becomes `internal`, keeping SQL
 * text out of responses while the cause stays on the error for the log.
 */
export async function translateUnique<T>(kind: string, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (error instanceof AppError) throw error
    if (typeof error === 'object' && error !== null && isUniqueViolation(error as DriverError)) {
      throw errors.alreadyExists(kind, name)
    }
    throw errors.internal(error)
  }
}
