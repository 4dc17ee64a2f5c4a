import { useState } from 'preact/hooks'
import { Problem } from '../components/problem'
import type { SessionKeeper } from '../session'
import { t } from '../strings'

export function SignIn({ sessions, notice }: { sessions: SessionKeeper; notice?: string }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)

  async function submit(event: Event) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    setBusy(true)
    setError(null)
    try {
      await sessions.signIn({
        appName: String(form.get('app_name') ?? ''),
        clientId: String(form.get('client_id') ?? ''),
        secret: String(form.get('client_secret') ?? ''),
      })
    } catch (caught) {
      setError(caught)
      setBusy(false)
    }
  }

  return (
    <main class="sign-in">
      <h1>{t.product}</h1>
      <p class="tagline">{t.tagline}</p>
      <form onSubmit={submit} class="card" aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">{t.signIn.title}</h2>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <p class="hint">{t.signIn.intro}</p>
        <label>
          {t.signIn.appName}
          <input name="app_name" required autoComplete="username" />
        </label>
        <label>
          {t.signIn.clientId}
          <input name="client_id" required autoComplete="off" />
        </label>
        <label>
          {t.signIn.secret}
          <input name="client_secret" type="password" required autoComplete="current-password" />
        </label>
        <Problem error={error} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t.signIn.working : t.signIn.submit}
        </button>
      </form>
    </main>
  )
}
