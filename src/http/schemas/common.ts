import Type, { type TSchema } from 'typebox'

/** Problem Details (RFC 9457) with the service's stable `code`. */
export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'Problem' },
)

// Problems leave as application/problem+json (RFC 9457), so they are documented under that type.
const ProblemResponse = {
  description: 'Problem Details with a stable `code`',
  content: { 'application/problem+json': { schema: Type.Unsafe<unknown>({ $ref: 'Problem#' }) } },
}

/** A route's success responses plus the problem responses every route can give. */
export function responses<T extends Record<number, TSchema>>(success: T) {
  return { ...success, '4xx': ProblemResponse, '5xx': ProblemResponse }
}

/** Datetime as stored: `2026-11-22T09:05:03.123456`. */
export const DateTime = Type.String({ description: 'UTC, ISO 8601 without zone, microseconds' })

export const Id = Type.String({ minLength: 1, maxLength: 200 })

export const CompanyParams = Type.Object({ company_id: Id })

export const Pagination = {
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
}

export const IdResponse = Type.Object({ id: Type.String() })

/** Marks an operation the spec does not define (DESIGN §4 extensions). */
export const EXTENSION = { 'x-extension': true } as const

export const BEARER = [{ bearerAuth: [] }]
/** An operation that takes no credentials (the token exchange, probes, metrics): an empty requirement. */
export const NO_CREDENTIALS: never[] = []
