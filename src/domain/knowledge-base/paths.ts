import { errors } from '../../lib/errors.js'

const MAX_PATH_BYTES = 1024
const MAX_SEGMENT_BYTES = 255
// C0/C1 controls and DEL; names with them break logs, terminals and downloads.
function hasControlCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true
  }
  return false
}

function segmentsOf(input: string, field: string): string[] {
  const text = input.normalize('NFC')
  if (Buffer.byteLength(text) > MAX_PATH_BYTES)
    throw errors.invalidPath(field, `path is longer than ${MAX_PATH_BYTES} bytes`)
  if (text.includes('\\')) throw errors.invalidPath(field, 'path must use "/" and no backslashes')
  if (hasControlCharacter(text)) throw errors.invalidPath(field, 'path contains control characters')
  const trimmed = text.replace(/^\//, '').replace(/\/$/, '')
  if (trimmed === '') return []
  const segments = trimmed.split('/')
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw errors.invalidPath(field, 'path has an empty, "." or ".." segment')
    }
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
      throw errors.invalidPath(field, `a path segment is longer than ${MAX_SEGMENT_BYTES} bytes`)
    }
  }
  return segments
}

/**
 * Canonical folder path: absolute, NFC, ending with `/` (`hr/policies` → `/hr/policies/`; `/` is
 * the root). Throws invalid_path, naming `field`, for anything unsafe.
 */
export function normalizeFolderPath(input: string, field = 'path'): string {
  const segments = segmentsOf(input, field)
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`
}

/** Canonical file path: absolute, NFC, no trailing `/` (`/hr/leave.pdf`). */
export function normalizeFilePath(input: string, field = 'path'): string {
  if (input.endsWith('/')) throw errors.invalidPath(field, 'a file path must not end with "/"')
  const segments = segmentsOf(input, field)
  if (segments.length === 0) throw errors.invalidPath(field, 'a file path needs a file name')
  return `/${segments.join('/')}`
}

/** A single file name (no `/`), validated like a path segment. */
export function normalizeFileName(input: string, field = 'files'): string {
  if (input.includes('/')) throw errors.invalidPath(field, 'a file name must not contain "/"')
  const [name] = segmentsOf(input, field)
  if (name === undefined) throw errors.invalidPath(field, 'the file name is empty')
  return name
}

/** Parent folder and last segment of a canonical path: `/a/b.pdf` → [`/a/`, `b.pdf`], `/a/b/` → [`/a/`, `b`]. */
export function splitPath(objectName: string): { parent: string; name: string } {
  const withoutSlash = objectName.endsWith('/') ? objectName.slice(0, -1) : objectName
  const cut = withoutSlash.lastIndexOf('/')
  return { parent: withoutSlash.slice(0, cut + 1), name: withoutSlash.slice(cut + 1) }
}

/** Every ancestor folder of a canonical path, outermost first, root excluded: `/a/b/c.pdf` → [`/a/`, `/a/b/`]. */
export function ancestorFolders(objectName: string): string[] {
  const folders: string[] = []
  let index = objectName.indexOf('/', 1)
  while (index !== -1 && index < objectName.length - (objectName.endsWith('/') ? 1 : 0)) {
    folders.push(objectName.slice(0, index + 1))
    index = objectName.indexOf('/', index + 1)
  }
  return folders
}
