import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'web/test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // How long expect.poll waits for a page or a job to catch up (1 s by default): a loaded machine
    // (CI beside benchmarks) takes longer to re-render a filtered list. A wait, not a timing assertion.
    expect: { poll: { timeout: 10_000 } },
  },
})
