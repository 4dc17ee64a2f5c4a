import { Ajv, type Options } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'
import { Problem } from './schemas/common.js'

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv

const shared: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false }

function build(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ ...shared, coerceTypes })
  addFormats(ajv)
  ajv.addSchema(Problem)
  return ajv
}

// Query strings and path segments are text on the wire, so `?limit=5` must become 5;
// JSON bodies carry real types, so `{"title": 5}` is a wrong type and is rejected, not coerced.
const coercing = build(true)
const strict = build(false)

/**
 * Unknown fields are ignored (not removed, not rejected); wrong types are rejected; defaults fill
 * in missing optional values.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strict : coercing
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>
}
