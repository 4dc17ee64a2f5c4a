import type { ComponentChildren } from 'preact'
import { useEffect, useErrorBoundary, useMemo, useState } from 'preact/hooks'
import { Api } from './api'
import { Problem } from './components/problem'
import { type Workspace, WorkspaceContext } from './context'
import { BotsPage } from './pages/bots'
import { ChatPage } from './pages/chat'
import { CompanyPage } from './pages/company'
import { KnowledgeBasePage } from './pages/knowledge-base'
import { SignIn } from './pages/sign-in'
import type { SessionKeeper } from './session'
import { t } from './strings'

const PAGES = {
  chat: { label: t.nav.chat, view: ChatPage },
  kb: { label: t.nav.knowledgeBase, view: KnowledgeBasePage },
  bots: { label: t.nav.bots, view: BotsPage },
  company: { label: t.nav.company, view: CompanyPage },
} as const
type PageName = keyof typeof PAGES

function pageFromHash(): PageName {
  const name = location.hash.replace(/^#\/?/, '')
  return name in PAGES ? (name as PageName) : 'chat'
}

export function App({ sessions }: { sessions: SessionKeeper }) {
  const [session, setSession] = useState(sessions.current())
  const [notice, setNotice] = useState<string | undefined>()
  const [page, setPage] = useState<PageName>(pageFromHash())
  const [workspace, setWorkspace] = useState<Workspace | null>(null)
  const [error, setError] = useState<unknown>(null)

  useEffect(
    () =>
      sessions.onChange((next, reason) => {
        setSession(next)
        setNotice(reason)
        if (!next) setWorkspace(null)
      }),
    [],
  )
  useEffect(() => {
    const onHash = () => setPage(pageFromHash())
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])

  const api = useMemo(
    () =>
      new Api(
        () => sessions.current()?.token ?? null,
        () => sessions.signOut(t.signIn.expired),
      ),
    [],
  )
  useEffect(() => {
    if (!session) return
    api
      .call(api.client.GET('/apif/v2/auth/company'))
      .then((company) =>
        setWorkspace({ api, companyId: company.id, companyName: company.name, defaultBotId: company.id_bot_default }),
      )
      .catch(setError)
  }, [session?.token])

  if (!session) return <SignIn sessions={sessions} notice={notice} />
  if (!workspace) {
    return (
      <main class="loading">
        <Problem error={error} />
      </main>
    )
  }
  const View = PAGES[page].view
  return (
    <WorkspaceContext.Provider value={workspace}>
      <a class="skip" href="#main">
        {t.nav.skip}
      </a>
      <header class="top">
        <span class="brand">{t.product}</span>
        <span class="company-name">{workspace.companyName}</span>
        <nav aria-label="main">
          {(Object.keys(PAGES) as PageName[]).map((name) => (
            <a href={`#/${name}`} aria-current={name === page ? 'page' : undefined} key={name}>
              {PAGES[name].label}
            </a>
          ))}
        </nav>
        <button type="button" class="small" onClick={() => sessions.signOut(t.signIn.signedOut)}>
          {t.nav.signOut}
        </button>
      </header>
      <main id="main">
        <Guarded key={page}>
          <View />
        </Guarded>
      </main>
    </WorkspaceContext.Provider>
  )
}

/** A page that fails while drawing shows what went wrong and a way back, never a blank page. */
function Guarded({ children }: { children: ComponentChildren }) {
  const [error, reset] = useErrorBoundary()
  if (!error) return <>{children}</>
  return (
    <section class="failed-page">
      <Problem error={error} />
      <button type="button" onClick={reset}>
        {t.errors.retry}
      </button>
    </section>
  )
}
