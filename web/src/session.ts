/** What signing in gives: a bearer token and when it ends. */
export interface Session {
  readonly token: string
  /** Unix time, milliseconds. */
  readonly expiresAt: number
  readonly appName: string
}

export interface Credentials {
  readonly appName: string
  readonly clientId: string
  readonly secret: string
}

/** Renew this long before the token ends, so that no request carries an expired one. */
export const RENEW_BEFORE_MS = 60_000
const STORAGE_KEY = 'lantern.session'

/** Where the session is kept: sessionStorage in the browser (gone with the tab), a map in tests. */
export interface SessionStorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export type TokenIssuer = (credentials: Credentials) => Promise<{ access_token: string; expires_at: number }>

/**
 * The signed-in session. The token is kept in sessionStorage so that a reload keeps the user signed
 * in; the secret is never stored: it stays in this object's memory, to renew the token before it
 * ends, and a reloaded page signs in again when the token runs out.
 */
export class SessionKeeper {
  private credentials: Credentials | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  private listeners = new Set<(session: Session | null, reason?: string) => void>()

  constructor(
    private readonly storage: SessionStorageLike,
    private readonly issue: TokenIssuer,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stored session, if its token has not ended. */
  current(): Session | null {
    const raw = this.storage.getItem(STORAGE_KEY)
    if (!raw) return null
    try {
      const session = JSON.parse(raw) as Session
      return session.expiresAt > this.now() ? session : null
    } catch {
      return null
    }
  }

  onChange(listener: (session: Session | null, reason?: string) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async signIn(credentials: Credentials): Promise<Session> {
    const issued = await this.issue(credentials)
    this.credentials = credentials
    const session: Session = {
      token: issued.access_token,
      expiresAt: issued.expires_at * 1000,
      appName: credentials.appName,
    }
    this.storage.setItem(STORAGE_KEY, JSON.stringify(session))
    this.schedule(session)
    for (const listener of this.listeners) listener(session)
    return session
  }

  /** Ends the session; `reason` is shown on the sign-in page (an expired token, say). */
  signOut(reason?: string): void {
    clearTimeout(this.timer)
    this.credentials = null
    this.storage.removeItem(STORAGE_KEY)
    for (const listener of this.listeners) listener(null, reason)
  }

  /** Renews the token RENEW_BEFORE_MS before it ends, while the secret is in memory. */
  private schedule(session: Session): void {
    clearTimeout(this.timer)
    const delay = Math.max(0, session.expiresAt - RENEW_BEFORE_MS - this.now())
    this.timer = setTimeout(() => {
      const credentials = this.credentials
      if (!credentials) return
      this.signIn(credentials).catch(() => this.signOut())
    }, delay)
  }
}
