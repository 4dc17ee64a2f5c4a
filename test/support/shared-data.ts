import { existsSync, readFileSync } from 'node:fs'

/**
 * A folder of the evaluation data beside the project (`../shared/data/<name>/`), or null, saying
 * so once, when this checkout has none (the data is never copied into the project).
 */
export function sharedData(name: string, consequence: string): URL | null {
  const dir = new URL(`../../../shared/data/${name}/`, import.meta.url)
  if (existsSync(dir)) return dir
  console.log(`${name} not found at ${dir.pathname}: ${consequence}`)
  return null
}

/** The lines of a JSON Lines file of such a folder. */
export function readJsonLines<T>(dir: URL, file: string): T[] {
  return readFileSync(new URL(file, dir), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T)
}
