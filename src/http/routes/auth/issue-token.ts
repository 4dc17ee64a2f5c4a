import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../../app-context.js'
import { Token, TokenRequest } from '../../schemas/auth.js'
import { NO_CREDENTIALS, responses } from '../../schemas/common.js'

/** Endpoint 1: client credentials → bearer token. */
export function issueTokenRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/auth/token',
    {
      config: {
        public: true,
        // Slows down secret guessing; a legitimate client needs one token an hour.
        rateLimit:
          ctx.config.tokenRateLimitPerMinute > 0
            ? { max: ctx.config.tokenRateLimitPerMinute, timeWindow: 60_000 }
            : false,
      },
      schema: {
        operationId: 'issueToken',
        summary: 'Exchange client credentials for a bearer token',
        tags: ['auth'],
        security: NO_CREDENTIALS,
        body: TokenRequest,
        response: responses({ 200: Token }),
      },
    },
    async (request) => {
      const body = request.body as { app_name: string; client_id: string; client_secret: string }
      const token = await ctx.services.tokens.issue({
        appName: body.app_name,
        clientId: body.client_id,
        clientSecret: body.client_secret,
      })
      return {
        access_token: token.accessToken,
        expires_at: token.expiresAt,
        expires_in: token.expiresIn,
        ext_expires_in: token.expiresIn,
        token_type: 'Bearer' as const,
      }
    },
  )
}
