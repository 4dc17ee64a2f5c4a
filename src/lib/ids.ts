import { randomBytes, randomUUID } from 'node:crypto'

/** A new entity id (UUID v4). */
export function newId(): string {
  return randomUUID()
}

/** A random url-safe secret of `bytes` bytes of entropy, with a prefix that says what it is. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** True for a syntactically valid UUID; anything else can never name a stored entity. */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}
