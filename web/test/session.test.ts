import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Credentials, RENEW_BEFORE_MS, SessionKeeper } from '../src/session'

class MemoryStorage {
  readonly items = new Map<string, string>()
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.items.set(key, value)
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
}

const credentials: Credentials = { appName: 'app', clientId: 'id', secret: 's3cret' }

describe('the session keeper', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }))
  afterEach(() => vi.useRealTimers())

  it('renews the token a minute before it ends, and never stores the secret', async () => {
    const storage = new MemoryStorage()
    let issued = 0
    const issue = vi.fn(async () => ({ access_token: `token-${++issued}`, expires_at: Date.now() / 1000 + 600 }))
    const sessions = new SessionKeeper(storage, issue)
    await sessions.signIn(credentials)
    expect(sessions.current()?.token).toBe('token-1')
    expect([...storage.items.values()].join()).not.toContain('s3cret')

    await vi.advanceTimersByTimeAsync(600_000 - RENEW_BEFORE_MS - 1)
    expect(issue).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(issue).toHaveBeenCalledTimes(2)
    expect(sessions.current()?.token).toBe('token-2')
  })

  it('signs out, with the reason, when renewal fails; a stored token past its end is no session', async () => {
    const storage = new MemoryStorage()
    const issue = vi
      .fn()
      .mockResolvedValueOnce({ access_token: 'first', expires_at: Date.now() / 1000 + 120 })
      .mockRejectedValueOnce(new Error('secret rotated'))
    const sessions = new SessionKeeper(storage, issue)
    const changes: (string | null)[] = []
    sessions.onChange((session) => changes.push(session?.token ?? null))
    await sessions.signIn(credentials)
    await vi.advanceTimersByTimeAsync(120_000 - RENEW_BEFORE_MS)
    expect(changes).toEqual(['first', null])
    expect(sessions.current()).toBeNull()

    storage.setItem('lantern.session', JSON.stringify({ token: 'old', expiresAt: Date.now() - 1, appName: 'app' }))
    expect(new SessionKeeper(storage, issue).current()).toBeNull()
  })
})
