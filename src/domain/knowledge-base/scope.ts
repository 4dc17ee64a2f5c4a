import { distinctWithIndex } from '../../lib/distinct.js'
import { AppError, errors } from '../../lib/errors.js'
import type { MessageFilters, ResolvedScope } from '../../retrieval/types.js'
import type { BotFilters } from '../../storage/ports/bots.js'
import type { DocumentSelection } from '../../storage/ports/search.js'
import type { Repositories } from '../../storage/store.js'
import { normalizeFolderPath } from './paths.js'

/** The part of a bot that decides its scope. */
export interface ScopedBot {
  readonly filters: Pick<BotFilters, 'paths' | 'tags'>
}

function hasFilters(filters: MessageFilters | undefined): filters is MessageFilters {
  return (
    !!filters && (filters.documentIds.length > 0 || filters.tagIds.length > 0 || (filters.folders?.length ?? 0) > 0)
  )
}

/**
 * The documents message filters name, checked against the company: every document id (a folder id
 * selects its subtree), tag id and folder path must exist there, else invalid_reference naming
 * `body/filters/<paths|tags|folders>/<index>`; a malformed folder path is invalid_path.
 */
async function selectionOf(
  repos: Repositories,
  companyId: string,
  filters: MessageFilters,
): Promise<DocumentSelection> {
  const documentIds: string[] = []
  const folders: string[] = []
  for (const { value, index } of distinctWithIndex(filters.documentIds)) {
    const object = await repos.knowledgeBase.findById(companyId, value)
    if (!object) throw errors.invalidReference(`body/filters/paths/${index}`, 'document', value)
    if (object.kind === 'folder') folders.push(object.objectName)
    else documentIds.push(object.id)
  }

  const tags = distinctWithIndex(filters.tagIds)
  if (tags.length > 0) {
    const found = new Set(
      (
        await repos.tags.findByIds(
          companyId,
          tags.map((tag) => tag.value),
        )
      ).map((tag) => tag.id),
    )
    const missing = tags.find((tag) => !found.has(tag.value))
    if (missing) throw errors.invalidReference(`body/filters/tags/${missing.index}`, 'tag', missing.value)
  }

  const paths = distinctWithIndex(
    (filters.folders ?? []).map((path, index) => normalizeFolderPath(path, `body/filters/folders/${index}`)),
  )
  const named = paths.filter((path) => path.value !== '/')
  if (named.length > 0) {
    const existing = new Set(
      (
        await repos.knowledgeBase.findByNames(
          companyId,
          named.map((path) => path.value),
        )
      )
        .filter((object) => object.kind === 'folder')
        .map((object) => object.objectName),
    )
    const missing = named.find((path) => !existing.has(path.value))
    if (missing) throw errors.invalidReference(`body/filters/folders/${missing.index}`, 'folder', missing.value)
  }
  folders.push(...paths.map((path) => path.value))
  return { documentIds, tagIds: tags.map((tag) => tag.value), folders }
}

/**
 * Which PROCESSED documents a query may see (DESIGN §4). The bot's scope is the documents under any
 * of its `filters.paths` folders OR carrying any of its `filters.tags`; a bot without filters (or
 * no bot) sees the whole knowledge base (`documentIds` null, the retriever keeps to PROCESSED
 * documents itself). Message filters narrow that scope (intersection), never widen it; filters
 * with every list empty are no filters. Filters while `manualFiltersAllowed` is false are 400
 * manual_filters_disabled; unknown or foreign ids in them are 400 invalid_reference.
 */
export async function resolveScope(
  repos: Repositories,
  companyId: string,
  bot: ScopedBot | undefined,
  filters: MessageFilters | undefined,
  manualFiltersAllowed: boolean,
): Promise<ResolvedScope> {
  const message = hasFilters(filters) ? filters : undefined
  if (message && !manualFiltersAllowed) {
    throw new AppError(
      'manual_filters_disabled',
      'this bot does not accept filters on messages (manual_filters is off)',
    )
  }
  const selection = message ? await selectionOf(repos, companyId, message) : undefined

  const botPaths = bot?.filters.paths ?? []
  const botTags = bot?.filters.tags ?? []
  const botScope =
    botPaths.length > 0 || botTags.length > 0
      ? await repos.search.processedDocumentIds(companyId, { folders: botPaths, tagIds: botTags, documentIds: [] })
      : null
  if (!selection) return { documentIds: botScope }

  const selected = await repos.search.processedDocumentIds(companyId, selection)
  if (botScope === null) return { documentIds: selected }
  const allowed = new Set(botScope)
  return { documentIds: selected.filter((id) => allowed.has(id)) }
}
