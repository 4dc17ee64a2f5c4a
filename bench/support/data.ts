import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

/** The repository root (bench scripts run from anywhere). */
export const ROOT = resolve(import.meta.dirname, '../..')

/**
 * The shared data folder: `$BENCH_DATA_DIR`, else `../shared/data` beside the repository. Data is
 * read in place, never copied into the repository.
 */
export function sharedDataDir(): string {
  return resolve(process.env.BENCH_DATA_DIR?.trim() || resolve(ROOT, '../shared/data'))
}

/**
 * The absolute paths of `relativePaths` under the shared data folder. When one is missing, prints
 * why the benchmark is skipped and ends the process with exit code 0: a machine without the data
 * has nothing to measure, which is not a failure.
 */
export function requireData(benchmark: string, ...relativePaths: string[]): string[] {
  const base = sharedDataDir()
  const paths = relativePaths.map((path) => resolve(base, path))
  const missing = paths.filter((path) => !existsSync(path))
  if (missing.length > 0) {
    console.log(
      `${benchmark}: skipped, the benchmark data is not on this machine (missing ${missing.join(', ')}). ` +
        'Put the shared data folder at ../shared/data beside the repository, or set BENCH_DATA_DIR.',
    )
    process.exit(0)
  }
  return paths
}
