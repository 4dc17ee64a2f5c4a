import type { Repositories } from '../../storage/store.js'

/** The names of each document's tags, by document id (every id present; no tags: an empty list). */
export async function tagNamesOf(
  repos: Repositories,
  companyId: string,
  documentIds: readonly string[],
): Promise<Map<string, string[]>> {
  const ids = [...new Set(documentIds)]
  const names = new Map<string, string[]>()
  if (ids.length === 0) return names
  const tagIds = await repos.tags.tagIdsOf(companyId, ids)
  const allTagIds = [...new Set([...tagIds.values()].flat())]
  const tags = allTagIds.length === 0 ? [] : await repos.tags.findByIds(companyId, allTagIds)
  const nameOf = new Map(tags.map((tag) => [tag.id, tag.name]))
  for (const id of ids)
    names.set(
      id,
      (tagIds.get(id) ?? []).flatMap((tagId) => nameOf.get(tagId) ?? []),
    )
  return names
}
