import { readdir } from 'node:fs/promises'
import { join } from 'node:path'

/** A regular file found under the walked directory. */
export interface LocalFile {
  readonly absolutePath: string
  /** Path below the walked directory, `/`-separated: `a/b/file.txt`. */
  readonly relativePath: string
  /** Folders between the walked directory and the file: `['a', 'b']`. */
  readonly folders: readonly string[]
  readonly name: string
}

/** A directory below the walked one that could not be listed. */
export interface WalkProblem {
  readonly relativePath: string
  readonly message: string
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Every regular file under `root`, depth-first, entries of each directory by name (UTF-16 code
 * units, so the order does not depend on the locale). Names starting with `.` (files and
 * directories) and symbolic links are skipped, so nothing outside `root` is ever read and a link
 * cycle cannot loop; sockets, FIFOs and devices are skipped too. A directory below `root` that
 * cannot be read is reported in `problems`; `root` itself failing throws.
 */
export async function walkTree(root: string): Promise<{ files: LocalFile[]; problems: WalkProblem[] }> {
  const files: LocalFile[] = []
  const problems: WalkProblem[] = []

  async function visit(directory: string, folders: readonly string[]): Promise<void> {
    const entries = await readdir(directory, { withFileTypes: true })
    entries.sort((a, b) => byName(a.name, b.name))
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.isSymbolicLink()) continue
      const absolutePath = join(directory, entry.name)
      if (entry.isFile()) {
        files.push({ absolutePath, relativePath: [...folders, entry.name].join('/'), folders, name: entry.name })
      } else if (entry.isDirectory()) {
        const inner = [...folders, entry.name]
        await visit(absolutePath, inner).catch((error: unknown) => {
          problems.push({ relativePath: `${inner.join('/')}/`, message: (error as Error).message })
        })
      }
    }
  }

  await visit(root, [])
  return { files, problems }
}
