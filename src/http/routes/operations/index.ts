import type { FastifyInstance } from 'fastify'
import Type from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { NO_CREDENTIALS } from '../../schemas/common.js'

const PUBLIC = { public: true }

/** Liveness, readiness and metrics, outside the API prefix and without authentication. */
export function registerOperationRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/health',
    {
      config: PUBLIC,
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness: the process is up',
        security: NO_CREDENTIALS,
        tags: ['operations'],
        'x-extension': true,
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  )

  app.get(
    '/ready',
    {
      config: { ...PUBLIC, answersWhileClosing: true },
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: the store answers and the process is not shutting down',
        security: NO_CREDENTIALS,
        tags: ['operations'],
        'x-extension': true,
        response: {
          200: Type.Object({ status: Type.String(), store: Type.String() }),
          503: Type.Object({ status: Type.String(), store: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      if (app.lanternState.closing) {
        return reply
          .header('Connection', 'close')
          .status(503)
          .send({ status: 'shutting_down', store: ctx.store.dialect })
      }
      try {
        await ctx.store.ping()
        return { status: 'ready', store: ctx.store.dialect }
      } catch {
        return reply.status(503).send({ status: 'store_unavailable', store: ctx.store.dialect })
      }
    },
  )

  app.get(
    '/metrics',
    {
      config: PUBLIC,
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        tags: ['operations'],
        security: NO_CREDENTIALS,
        'x-extension': true,
      },
    },
    async (_request, reply) => {
      const body = await app.metricsRegistry.metrics()
      return reply.type(app.metricsRegistry.contentType).send(body)
    },
  )
}
