import type { Timestamp } from '../../lib/clock.js'
import type { Repositories } from '../../storage/store.js'

const PAGE = 100

/**
 * Removes deleted file paths from every bot's default documents, in the caller's transaction, so
 * no bot keeps handing a document that no longer exists to its answers.
 */
export async function forgetDocumentsInBots(
  tx: Repositories,
  companyId: string,
  objectNames: readonly string[],
  now: Timestamp,
): Promise<void> {
  if (objectNames.length === 0) return
  const gone = new Set(objectNames)
  for (let offset = 0; ; offset += PAGE) {
    const bots = await tx.bots.list(companyId, offset, PAGE)
    for (const bot of bots) {
      const { defaultDocuments, defaultAutoDocuments } = bot.filters
      if (!defaultDocuments.some((p) => gone.has(p)) && !defaultAutoDocuments.some((p) => gone.has(p))) continue
      await tx.bots.replace({
        ...bot,
        filters: {
          ...bot.filters,
          defaultDocuments: defaultDocuments.filter((p) => !gone.has(p)),
          defaultAutoDocuments: defaultAutoDocuments.filter((p) => !gone.has(p)),
        },
        updatedAt: now,
      })
    }
    if (bots.length < PAGE) return
  }
}
