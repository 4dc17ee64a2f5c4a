/**
 * The typed client of Lantern's HTTP API: openapi-fetch over the types that openapi-typescript
 * generates from the served OpenAPI document (`schema.ts`, written by `npm run client:generate`).
 * It imports nothing else of src/: the CLI uses it, and so will the web console (a browser build).
 *
 *   const api = createLanternClient({ baseUrl: 'http://127.0.0.1:8080', token: () => token })
 *   const { data, error } = await api.GET('/apif/v2/company/{company_id}/bot', {
 *     params: { path: { company_id }, query: { offset: 0, limit: 20 } },
 *   })
 *
 * Every call resolves with `{ data, response }` on a 2xx answer and `{ error, response }` otherwise
 * (`error` is the problem+json body); it rejects only when no answer came (the fetch failed).
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { paths } from './schema.js'

export type { components, operations, paths } from './schema.js'

/**
 * The bearer token to send, asked before every request so that a caller can renew it; nothing
 * (undefined or '') sends no Authorization header, as for the token request itself.
 */
export type TokenSource = () => string | undefined | Promise<string | undefined>

export interface LanternClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service is, without `/apif/v2` (the paths carry it): `http://127.0.0.1:8080`. */
  readonly baseUrl: string
  readonly token?: TokenSource
}

export type LanternClient = Client<paths>

/** A client of the Lantern service at `baseUrl`, authorised by `token`. */
export function createLanternClient({ token, ...options }: LanternClientOptions): LanternClient {
  const client = createClient<paths>(options)
  if (token) {
    client.use({
      async onRequest({ request }) {
        const value = await token()
        if (value) request.headers.set('authorization', `Bearer ${value}`)
        return request
      },
    })
  }
  return client
}
