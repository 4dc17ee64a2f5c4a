import { render } from 'preact'
import { API, problemOf } from './api'
import { App } from './app'
import { type Credentials, SessionKeeper } from './session'
import './styles.css'

/** The token exchange: the one call made without a token. */
async function issueToken(credentials: Credentials) {
  const response = await fetch(`${API}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      app_name: credentials.appName,
      client_id: credentials.clientId,
      client_secret: credentials.secret,
    }),
  })
  if (!response.ok) throw problemOf(response.status, await response.text())
  return (await response.json()) as { access_token: string; expires_at: number }
}

const root = document.getElementById('app')
if (root) render(<App sessions={new SessionKeeper(sessionStorage, issueToken)} />, root)
