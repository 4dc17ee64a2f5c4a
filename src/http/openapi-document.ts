/** The parts of an OpenAPI operation this adjustment reads. */
interface Parameter {
  in?: string
  required?: boolean
  schema?: { default?: unknown }
}

/**
 * The served OpenAPI document as clients should read it: a query parameter with a default
 * (`offset`, `limit`, `path`, `recursive`, `archived`, `size`) may be left out, so it is not
 * `required`, although the wire schema lists it among the object's properties that Ajv fills in.
 */
export function withOptionalDefaults<T extends { paths?: object }>(document: T): T {
  for (const operations of Object.values(document.paths ?? {}) as Record<string, { parameters?: Parameter[] }>[]) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && parameter.schema?.default !== undefined) parameter.required = false
      }
    }
  }
  return document
}
