import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

/** Fast digest for high-entropy random tokens, so a token check costs one indexed lookup. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

const SCRYPT_KEYLEN = 32

function scryptAsync(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    scrypt(secret, salt, SCRYPT_KEYLEN, (error, key) => (error ? reject(error) : resolvePromise(key)))
  })
}

/** Slow salted hash for client secrets, stored as `scrypt$<salt>$<hash>`. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(secret, salt)
  return `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`
}

/** Constant-time check of a secret against a value made by hashSecret. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'))
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
