import Type from 'typebox'
import { DateTime, Id, Pagination } from './common.js'

export const TagParams = Type.Object({ company_id: Id, tag_id: Id })

/** Query of GET …/knowledge-base/tags. */
export const TagListQuery = Type.Object({
  ...Pagination,
  search: Type.Optional(Type.String({ maxLength: 100, description: 'case-insensitive substring of the name' })),
})

/** Body of POST and PATCH …/knowledge-base/tags. */
export const TagBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'trimmed; unique in the company ignoring case' }),
})

/** Tag (spec 2.8). */
export const Tag = Type.Object({
  id: Type.String(),
  name: Type.String(),
  create_at: DateTime,
  update_at: DateTime,
})

export const TagList = Type.Array(Tag)
