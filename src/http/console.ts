import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

/**
 * The console's Content-Security-Policy: its own scripts, styles, images and API only; no inline
 * script, no other origin, never inside another site's frame. pdf.js runs its worker from a blob
 * and draws into canvases, hence `blob:` for workers and images.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** Where `npm run build` writes the console: `dist/web`, seen from this file built or as source. */
export function defaultConsoleDir(): string {
  const fromHere = import.meta.url.endsWith('.ts') ? '../../dist/web' : '../web'
  return fileURLToPath(new URL(fromHere, import.meta.url))
}

/**
 * Serves the web console (web/, built by `npm run build`) at `/`, from the API's own origin. Without
 * a build, `/` says how to make one rather than answering 404.
 */
export async function registerConsole(app: FastifyInstance, directory: string): Promise<void> {
  if (!existsSync(`${directory}/index.html`)) {
    app.get('/', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send('The web console is not built here: run "npm run build", then start Lantern again.\n'),
    )
    return
  }
  await app.register(fastifyStatic, {
    root: directory,
    prefix: '/',
    decorateReply: false,
    wildcard: false,
    index: ['index.html'],
    schemaHide: true,
    setHeaders: (reply) => {
      reply.header('content-security-policy', CONSOLE_CSP)
      reply.header('referrer-policy', 'no-referrer')
    },
  })
}
