import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../../app-context.js'

/** Skeleton: the helper building this resource replaces this file. */
export function registerTagRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
