import { ApiError, type LanternApi } from './api-client.js'

/** `a, b,,A` → `['a', 'b']`: trimmed, NFC, empty ones dropped, duplicates (ignoring case) once. */
export function parseTagNames(list: string): string[] {
  const names: string[] = []
  for (const raw of list.split(',')) {
    const name = raw.normalize('NFC').trim()
    if (name !== '' && !names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name)
  }
  return names
}

/**
 * The ids of the tags named `names` (matched ignoring case, as the API does), creating the missing
 * ones. A tag created meanwhile by someone else (409) is looked up again.
 */
export async function resolveTagIds(api: LanternApi, names: readonly string[]): Promise<string[]> {
  const ids: string[] = []
  for (const name of names) {
    let tag = await api.findTag(name)
    if (!tag) {
      try {
        tag = await api.createTag(name)
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 409)) throw error
        tag = await api.findTag(name)
        if (!tag) throw error
      }
    }
    ids.push(tag.id)
  }
  return ids
}
