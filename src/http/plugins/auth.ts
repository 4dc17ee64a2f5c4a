import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Principal } from '../../domain/principal.js'
import type { Services } from '../../domain/services.js'
import { errors } from '../../lib/errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal
  }
  interface FastifyContextConfig {
    /** Routes that need no bearer token (token endpoint, health, docs). */
    public?: boolean
  }
}

/** The caller of an authenticated route; only routes marked public lack one. */
export function principalOf(request: FastifyRequest): Principal {
  return request.principal
}

/**
 * Bearer authentication for every route not marked `config.public`, and tenant isolation for every
 * path with a `company_id`: another company's id answers 404 exactly like an unknown one.
 */
export function registerAuth(app: FastifyInstance, services: Services): void {
  app.decorateRequest('principal', null as unknown as Principal)
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public || request.is404) return
    const header = request.headers.authorization
    if (!header) throw errors.unauthenticated()
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (!match?.[1]) throw errors.unauthenticated('the Authorization header must be "Bearer <token>"')
    request.principal = await services.tokens.authenticate(match[1])
    const companyId = (request.params as { company_id?: string } | undefined)?.company_id
    if (companyId !== undefined && companyId !== request.principal.companyId) {
      throw errors.notFound('company', companyId)
    }
  })
}
