import type { Timestamp } from '../../lib/clock.js'
import { errors } from '../../lib/errors.js'
import { newId } from '../../lib/ids.js'
import type { Repositories } from '../../storage/store.js'
import { ancestorFolders } from './paths.js'

/**
 * Refuses a path that would put a file and a folder under one name: a folder `/a/` where the file
 * `/a` exists (or the reverse), or an ancestor folder that is a file. Throws already_exists.
 */
export async function assertPlaceable(repos: Repositories, companyId: string, objectName: string): Promise<void> {
  const folders = ancestorFolders(objectName)
  const twin = objectName.endsWith('/') ? objectName.slice(0, -1) : `${objectName}/`
  const blocking = [twin, ...folders.map((folder) => folder.slice(0, -1))]
  const found = await repos.knowledgeBase.findByNames(companyId, blocking)
  const clash = blocking.find((name) => found.some((object) => object.objectName === name))
  if (clash !== undefined) {
    throw errors.alreadyExists(clash.endsWith('/') ? 'folder' : 'document', clash)
  }
}

/**
 * Creates the folder path (and every missing ancestor) inside the caller's transaction, like
 * `mkdir -p`. Returns the folder's id and whether the folder itself was created now.
 */
export async function ensureFolder(
  tx: Repositories,
  companyId: string,
  folder: string,
  now: Timestamp,
): Promise<{ id: string; created: boolean }> {
  let created = false
  for (const path of [...ancestorFolders(folder), folder]) {
    created = await tx.knowledgeBase.insertFolderIfMissing({
      kind: 'folder',
      id: newId(),
      companyId,
      objectName: path,
      createdAt: now,
      updatedAt: now,
    })
  }
  const row = await tx.knowledgeBase.findByName(companyId, folder)
  if (row?.kind !== 'folder') throw errors.alreadyExists('document', folder.slice(0, -1))
  return { id: row.id, created }
}
