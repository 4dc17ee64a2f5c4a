import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'

describe('loadConfig', () => {
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: resolve('./data'),
      databaseUrl: undefined,
      maxUploadBytes: 100 * 1024 * 1024,
      maxJsonBodyBytes: 1024 * 1024,
      tokenTtlSeconds: 3600,
      logLevel: 'info',
      shutdownGraceMs: 10_000,
      pgPoolSize: 10,
      tokenRateLimitPerMinute: 60,
    })
    expect(config.workers).toBeGreaterThanOrEqual(1)
    expect(config.pdfText).toBe('auto')
    expect(Object.isFrozen(config)).toBe(true)
  })

  it('reads every setting from the environment', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '9000',
      LANTERN_DATA_DIR: '/var/lib/lantern',
      LANTERN_DATABASE_URL: 'postgresql://app@db:5432/lantern',
      LANTERN_MAX_UPLOAD_BYTES: '2GB',
      LANTERN_MAX_JSON_BYTES: '65536',
      LANTERN_WORKERS: '3',
      LANTERN_TOKEN_TTL: '600',
      LANTERN_LOG_LEVEL: 'debug',
      LANTERN_SHUTDOWN_GRACE_MS: '500',
      LANTERN_PG_POOL_SIZE: '25',
      LANTERN_TOKEN_RATE_LIMIT: '0',
    })
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 9000,
      dataDir: '/var/lib/lantern',
      databaseUrl: 'postgresql://app@db:5432/lantern',
      maxUploadBytes: 2 * 1024 ** 3,
      maxJsonBodyBytes: 65536,
      workers: 3,
      tokenTtlSeconds: 600,
      logLevel: 'debug',
      shutdownGraceMs: 500,
      pgPoolSize: 25,
      tokenRateLimitPerMinute: 0,
    })
  })

  it('treats empty values as unset and ignores variables that are not LANTERN_*', () => {
    expect(loadConfig({ PORT: '', LANTERN_DATABASE_URL: ' ', NODE_ENV: 'production' })).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
    })
  })

  it('lets explicit overrides win over the environment', () => {
    expect(loadConfig({ PORT: '9000' }, { port: 0 }).port).toBe(0)
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number, got "abc"'],
    [{ PORT: '-1' }, 'PORT must be a whole number, got "-1"'],
    [{ PORT: '65536' }, 'PORT must be between 0 and 65535, got 65536'],
    [{ PORT: '80.5' }, 'PORT must be a whole number'],
    [{ LANTERN_LOG_LEVEL: 'loud' }, 'LANTERN_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ LANTERN_FOO: '1' }, 'unknown setting LANTERN_FOO'],
    [{ LANTERN_DATABASE_URL: 'mysql://x' }, 'LANTERN_DATABASE_URL must use postgres://, got mysql://'],
    [{ LANTERN_DATABASE_URL: 'not a url' }, 'LANTERN_DATABASE_URL must be a URL'],
    [{ LANTERN_MAX_UPLOAD_BYTES: 'huge' }, 'LANTERN_MAX_UPLOAD_BYTES must be a byte count or a size like 100MB'],
    [{ LANTERN_MAX_UPLOAD_BYTES: '0' }, 'LANTERN_MAX_UPLOAD_BYTES must be a byte count'],
    [{ LANTERN_TOKEN_TTL: '59' }, 'LANTERN_TOKEN_TTL must be between 60 and 2592000'],
    [{ LANTERN_WORKERS: '257' }, 'LANTERN_WORKERS must be between 0 and 256'],
    [{ LANTERN_PG_POOL_SIZE: '0' }, 'LANTERN_PG_POOL_SIZE must be between 1 and 200'],
    [{ LANTERN_SHUTDOWN_GRACE_MS: 'soon' }, 'LANTERN_SHUTDOWN_GRACE_MS must be a whole number'],
    [{ LANTERN_OCR_LANGS: 'eng+klingon' }, 'LANTERN_OCR_LANGS must list languages among eng, fra, deu, spa'],
    [{ LANTERN_PDF_TEXT: 'poppler' }, 'LANTERN_PDF_TEXT must be one of auto, mutool, pdfjs, got "poppler"'],
    [
      { LANTERN_CHUNK_TOKENS: '100', LANTERN_CHUNK_OVERLAP: '100' },
      'LANTERN_CHUNK_OVERLAP must be smaller than LANTERN_CHUNK_TOKENS (100), got 100',
    ],
  ])('rejects %o with a ConfigError naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(message)
  })

  it('names every unknown LANTERN_ variable at once and lists the known ones', () => {
    expect(() => loadConfig({ LANTERN_PORT: '1', LANTERN_DATADIR: 'x' })).toThrow(
      /unknown setting LANTERN_PORT, LANTERN_DATADIR; known: LANTERN_DATA_DIR, /,
    )
  })
})

describe('docs/configuration.md', () => {
  it('documents every variable the configuration reads', () => {
    const source = readFileSync(resolve(import.meta.dirname, '../../src/config.ts'), 'utf8')
    const docs = readFileSync(resolve(import.meta.dirname, '../../docs/configuration.md'), 'utf8')
    const variables = new Set([...source.matchAll(/(?:'|env\.)(LANTERN_[A-Z_]+|PORT|HOST)\b/g)].map((m) => m[1]))
    expect(variables.size).toBeGreaterThan(10)
    expect([...variables].filter((name) => !docs.includes(`\`${name}\``))).toEqual([])
  })
})
