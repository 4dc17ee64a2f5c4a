import { randomUUID } from 'node:crypto'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { AppContext } from '../app-context.js'
import { AppError } from '../lib/errors.js'
import { defaultConsoleDir, registerConsole } from './console.js'
import { withOptionalDefaults } from './openapi-document.js'
import { registerAuth } from './plugins/auth.js'
import { registerErrorHandling, sendProblem } from './plugins/errors.js'
import { registerMetrics } from './plugins/metrics.js'
import { registerRoutes } from './routes/index.js'
import { registerOperationRoutes } from './routes/operations/index.js'
import { Problem } from './schemas/common.js'
import { validatorCompiler } from './validation.js'

export const API_PREFIX = '/apif/v2'

const REQUEST_ID = /^[\w.-]{1,100}$/

export interface ServerState {
  /** Set when shutdown starts: new requests get 503 while in-flight ones finish. */
  closing: boolean
}

/** Builds the HTTP application without listening, so tests drive it through a real port or inject. */
export interface ServerOptions {
  /** The built web console served at `/` (default: `dist/web` of this installation). */
  readonly consoleDir?: string
}

export async function buildServer(
  ctx: AppContext,
  logger: FastifyBaseLogger,
  options: ServerOptions = {},
): Promise<FastifyInstance> {
  const state: ServerState = { closing: false }
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: ctx.config.maxJsonBodyBytes,
    // The id comes from genReqId alone, which accepts a caller's x-request-id only when well-formed.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    ajv: { customOptions: { removeAdditional: false } },
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  })

  app.decorate('lanternState', state)
  app.setValidatorCompiler(validatorCompiler)
  app.addSchema(Problem)
  registerErrorHandling(app)
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
    // Every response, the API's included: a browser never guesses another type than the one sent.
    reply.header('x-content-type-options', 'nosniff')
    if (state.closing && !request.routeOptions.config.answersWhileClosing) {
      reply.header('Connection', 'close')
      return sendProblem(reply, new AppError('shutting_down', 'the service is shutting down; retry shortly'))
    }
  })
  registerMetrics(app)
  // Limits are opted into per route (the token endpoint), keyed by client address.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `too many requests; retry in ${Math.ceil(context.ttl / 1000)} s`),
  })

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lantern knowledge assistant API',
        version: '2.0.0',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        description:
          'The knowledge-assistant contract under /apif/v2. Operations marked `x-extension` are Lantern extensions ' +
          'beyond the base specification. Errors are application/problem+json with a stable `code`.',
      },
      // Relative: the document is served by the service it describes, at whatever address that has.
      servers: [{ url: '/', description: 'this Lantern service' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    // Shared schemas keep their $id as their component name (`Problem`), not `def-0`.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === 'string' ? json.$id : `def-${index}`,
    },
    transformObject: (document) =>
      'openapiObject' in document ? withOptionalDefaults(document.openapiObject) : document.swaggerObject,
  })
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, staticCSP: true })
  app.get(`${API_PREFIX}/openapi.json`, { config: { public: true }, schema: { hide: true } }, async () => app.swagger())

  registerOperationRoutes(app, ctx)
  await registerConsole(app, options.consoleDir ?? defaultConsoleDir())
  await app.register(
    async (api) => {
      registerAuth(api, ctx.services)
      await registerRoutes(api, ctx)
    },
    { prefix: API_PREFIX },
  )
  app.addHook('onClose', async () => {
    state.closing = true
  })
  return app
}

declare module 'fastify' {
  interface FastifyInstance {
    lanternState: ServerState
  }
  interface FastifyContextConfig {
    /** The route reports shutdown itself (readiness) instead of the generic 503 problem. */
    answersWhileClosing?: boolean
  }
}
