/**
 * `npm run client:generate`: writes src/client/schema.ts, the types of the typed client, from the
 * OpenAPI document the server serves at /apif/v2/openapi.json. The server is built in this process
 * on a throw-away SQLite directory with the default settings and never listens on a port.
 * test/http/typed-client.test.ts fails when the committed file differs from what this writes.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript'
import pino from 'pino'
import ts from 'typescript'
import { buildAppContext } from '../src/app-context.js'
import { loadConfig } from '../src/config.js'
import { buildServer } from '../src/http/server.js'

const ROOT = resolve(import.meta.dirname, '..')

/** The generated file, committed. */
export const SCHEMA_FILE = join(ROOT, 'src/client/schema.ts')

/** The document served at /apif/v2/openapi.json, from a server built in-process with the default settings. */
export async function buildOpenApiDocument(): Promise<OpenAPI3> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-openapi-'))
  try {
    // No environment: LANTERN_* variables of the caller's shell do not change the document.
    const ctx = await buildAppContext(loadConfig({}, { dataDir, logLevel: 'silent' }), { migrate: true })
    try {
      const app = await buildServer(ctx, pino({ level: 'silent' }))
      await app.ready()
      const document = app.swagger() as OpenAPI3
      await app.close()
      return document
    } finally {
      await ctx.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const BLOB = ts.factory.createTypeReferenceNode('Blob')

/**
 * The source of src/client/schema.ts for `document`: openapi-typescript's types (a binary string,
 * an uploaded or downloaded file, typed as Blob), formatted by Biome as the rest of the repository.
 */
export async function clientSchemaSource(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, {
    silent: true,
    transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
  })
  return biomeFormat(COMMENT_HEADER + astToString(ast), SCHEMA_FILE)
}

function biomeFormat(source: string, file: string): string {
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome')
  const result = spawnSync(process.execPath, [biome, 'format', `--stdin-file-path=${relative(ROOT, file)}`], {
    cwd: ROOT,
    input: source,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (result.status !== 0) throw new Error(`biome format failed (${result.status}): ${result.stderr}`)
  return result.stdout
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const source = await clientSchemaSource(await buildOpenApiDocument())
  writeFileSync(SCHEMA_FILE, source)
  console.log(`wrote ${relative(ROOT, SCHEMA_FILE)} (${source.split('\n').length} lines)`)
}
