import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/** The console: built into dist/web, served by Lantern at `/` (src/http/console.ts). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // No inline script or style may reach the page: the Content-Security-Policy forbids them.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: true,
  },
  logLevel: 'warn',
})
