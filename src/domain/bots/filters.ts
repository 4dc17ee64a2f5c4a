import { distinctWithIndex } from '../../lib/distinct.js'
import { errors } from '../../lib/errors.js'
import type { BotFilters } from '../../storage/ports/bots.js'
import type { Repositories } from '../../storage/store.js'
import { normalizeFilePath, normalizeFolderPath } from '../knowledge-base/paths.js'

/** Filters as a caller sends them: any key may be missing. */
export type FiltersInput = { readonly [K in keyof BotFilters]?: readonly string[] }

// Field names as the caller sent them, so error paths point into the request body.
const WIRE_NAMES: Record<keyof BotFilters, string> = {
  paths: 'paths',
  tags: 'tags',
  defaultDocuments: 'default_documents',
  defaultAutoDocuments: 'default_auto_documents',
}

function fieldOf(key: keyof BotFilters, index: number): string {
  return `body/filters/${WIRE_NAMES[key]}/${index}`
}

async function resolveTags(repos: Repositories, companyId: string, ids: readonly string[]): Promise<string[]> {
  const wanted = distinctWithIndex(ids)
  if (wanted.length === 0) return []
  const found = new Set((await repos.tags.findByIds(companyId, [...new Set(ids)])).map((tag) => tag.id))
  const missing = wanted.find((entry) => !found.has(entry.value))
  if (missing) throw errors.invalidReference(fieldOf('tags', missing.index), 'tag', missing.value)
  return wanted.map((entry) => entry.value)
}

async function resolveDocuments(
  repos: Repositories,
  companyId: string,
  key: 'defaultDocuments' | 'defaultAutoDocuments',
  paths: readonly string[],
): Promise<string[]> {
  const normalized = paths.map((path, index) => normalizeFilePath(path, fieldOf(key, index)))
  const wanted = distinctWithIndex(normalized)
  const found = await repos.knowledgeBase.findByNames(
    companyId,
    wanted.map((entry) => entry.value),
  )
  const documents = new Set(found.filter((object) => object.kind === 'document').map((object) => object.objectName))
  const missing = wanted.find((entry) => !documents.has(entry.value))
  if (missing) throw errors.invalidReference(fieldOf(key, missing.index), 'document', missing.value)
  return wanted.map((entry) => entry.value)
}

/**
 * Canonical filters for the keys `input` carries, each list without repeats in first-seen order:
 * folder paths normalised (they need not exist yet), tag ids that exist in the company, and default
 * documents as normalised paths of existing documents. Throws invalid_path or invalid_reference
 * naming the offending element (`body/filters/<key>/<index>`).
 */
export async function resolveFilters(
  repos: Repositories,
  companyId: string,
  input: FiltersInput,
): Promise<Partial<BotFilters>> {
  const resolved: { -readonly [K in keyof BotFilters]?: readonly string[] } = {}
  if (input.paths) {
    const normalized = input.paths.map((path, index) => normalizeFolderPath(path, fieldOf('paths', index)))
    resolved.paths = distinctWithIndex(normalized).map((entry) => entry.value)
  }
  if (input.tags) resolved.tags = await resolveTags(repos, companyId, input.tags)
  if (input.defaultDocuments) {
    resolved.defaultDocuments = await resolveDocuments(repos, companyId, 'defaultDocuments', input.defaultDocuments)
  }
  if (input.defaultAutoDocuments) {
    resolved.defaultAutoDocuments = await resolveDocuments(
      repos,
      companyId,
      'defaultAutoDocuments',
      input.defaultAutoDocuments,
    )
  }
  return resolved
}
