import type { Credentials } from './server.js'

/** Renew this long before the token's expiry (requests in flight must not meet a 401). */
const MARGIN_MS = 5 * 60_000

/** A non-2xx answer. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}: ${body.slice(0, 300)}`)
  }
}

/**
 * The bearer token of a benchmark client, renewed from the client credentials before it expires
 * (LANTERN_TOKEN_TTL, one hour by default): a run that ingests for hours keeps working.
 */
export class BenchToken {
  private value = ''
  private expiresAt = 0
  private renewing: Promise<string> | undefined

  constructor(
    private readonly base: string,
    private readonly credentials: Credentials,
  ) {}

  /** A token valid for at least a few more minutes. */
  async current(): Promise<string> {
    if (this.value && Date.now() < this.expiresAt - MARGIN_MS) return this.value
    return this.renew()
  }

  /** A new token (after a 401: revoked, or the clock moved). */
  renew(): Promise<string> {
    this.renewing ??= this.issue().finally(() => {
      this.renewing = undefined
    })
    return this.renewing
  }

  private async issue(): Promise<string> {
    const response = await fetch(`${this.base}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        app_name: this.credentials.app_name,
        client_id: this.credentials.client_id,
        client_secret: this.credentials.client_secret,
      }),
    })
    const text = await response.text()
    if (!response.ok) throw new HttpError(response.status, text)
    const issued = JSON.parse(text) as { access_token: string; expires_in: number }
    this.value = issued.access_token
    this.expiresAt = Date.now() + issued.expires_in * 1000
    return this.value
  }

  /**
   * `fetch` with the token in `authorization`, renewed and retried once on a 401; the body must be
   * replayable (a string or a Blob).
   */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const send = async (token: string) =>
      fetch(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
      })
    const response = await send(await this.current())
    if (response.status !== 401) return response
    await response.body?.cancel()
    return send(await this.renew())
  }
}
