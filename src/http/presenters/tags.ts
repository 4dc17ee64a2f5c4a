import type { TagRecord } from '../../storage/ports/tags.js'

/** Tag of spec 2.8. */
export function presentTag(tag: TagRecord) {
  return { id: tag.id, name: tag.name, create_at: tag.createdAt, update_at: tag.updatedAt }
}
