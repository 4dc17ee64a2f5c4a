import type { FastifyInstance } from 'fastify'
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'

declare module 'fastify' {
  interface FastifyInstance {
    metricsRegistry: Registry
  }
}

/** Prometheus metrics per app instance: request counts and latencies by route and status. */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'lantern_' })
  const requests = new Counter({
    name: 'lantern_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'lantern_http_request_duration_seconds',
    help: 'HTTP request duration by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  app.decorate('metricsRegistry', registry)
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    requests.inc({ method: request.method, route, status: String(reply.statusCode) })
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000)
  })
}
