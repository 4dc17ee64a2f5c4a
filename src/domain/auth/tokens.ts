import { addSeconds, type Clock, timestampToMillis } from '../../lib/clock.js'
import { errors } from '../../lib/errors.js'
import { sha256Hex, verifySecret } from '../../lib/hashing.js'
import { newSecret } from '../../lib/ids.js'
import type { Store } from '../../storage/store.js'
import type { Principal } from '../principal.js'

export interface TokenRequest {
  readonly appName: string
  readonly clientId: string
  readonly clientSecret: string
}

export interface IssuedToken {
  readonly accessToken: string
  /** Unix seconds. */
  readonly expiresAt: number
  /** Seconds. */
  readonly expiresIn: number
}

const TOKEN_PREFIX = 'lat_'

export interface TokenServiceDeps {
  readonly store: Store
  readonly clock: Clock
  readonly tokenTtlSeconds: number
}

/** Client-credentials exchange and bearer-token checks. */
export class TokenService {
  constructor(private readonly deps: TokenServiceDeps) {}

  /** Throws invalid_client for an unknown, disabled or mismatched client (one answer for all). */
  async issue(request: TokenRequest): Promise<IssuedToken> {
    const { store, clock, tokenTtlSeconds } = this.deps
    const client = await store.clients.findByClientId(request.clientId)
    const secretOk = client ? await verifySecret(request.clientSecret, client.secretHash) : false
    if (!client || client.disabled || client.appName !== request.appName || !secretOk) throw errors.invalidClient()
    const now = clock.now()
    const expiresAt = addSeconds(now, tokenTtlSeconds)
    const accessToken = newSecret(TOKEN_PREFIX)
    await store.tokens.insert({
      tokenHash: sha256Hex(accessToken),
      apiClientId: client.id,
      companyId: client.companyId,
      secretVersion: client.secretVersion,
      expiresAt,
      createdAt: now,
    })
    return {
      accessToken,
      expiresAt: Math.floor(timestampToMillis(expiresAt) / 1000),
      expiresIn: tokenTtlSeconds,
    }
  }

  /** The principal of a live token; throws invalid_token otherwise. One indexed lookup, no slow hash. */
  async authenticate(accessToken: string): Promise<Principal> {
    if (!accessToken.startsWith(TOKEN_PREFIX) || accessToken.length > 200) throw errors.invalidToken()
    const owner = await this.deps.store.tokens.findLive(sha256Hex(accessToken), this.deps.clock.now())
    if (!owner) throw errors.invalidToken()
    return owner
  }
}
