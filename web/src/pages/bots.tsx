import { useEffect, useState } from 'preact/hooks'
import { Problem } from '../components/problem'
import { useWorkspace } from '../context'
import { t } from '../strings'
import type { Bot } from '../types'

/** The answer languages offered (the bot's locale); AUTOMATIC answers in the question's language. */
const LOCALES = ['AUTOMATIC', 'en', 'fr', 'de', 'es', 'it', 'pt', 'nl'] as const

export function BotsPage() {
  const { api, companyId, defaultBotId } = useWorkspace()
  const [bots, setBots] = useState<Bot[]>([])
  const [error, setError] = useState<unknown>(null)
  const [reload, setReload] = useState(0)

  useEffect(() => {
    api
      .call(
        api.client.GET('/apif/v2/company/{company_id}/bot', {
          params: { path: { company_id: companyId }, query: { limit: 100 } },
        }),
      )
      .then(setBots, setError)
  }, [reload])

  async function create(event: Event) {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    const paths = String(data.get('paths') ?? '')
      .split(',')
      .map((path) => path.trim())
      .filter(Boolean)
      .map((path) => (path.endsWith('/') ? path : `${path}/`))
    try {
      await api.call(
        api.client.POST('/apif/v2/company/{company_id}/bot', {
          params: { path: { company_id: companyId } },
          body: {
            label: String(data.get('label')),
            description: String(data.get('description')),
            prompt: { name: String(data.get('prompt_name') || 'default'), prompt: String(data.get('prompt')) },
            locale: LOCALES.find((locale) => locale === data.get('locale')) ?? 'AUTOMATIC',
            auto_document_selector: String(data.get('selector')) as 'hidden' | 'choose' | 'always',
            manual_filters: data.get('manual_filters') === 'on',
            data_scientist_mode: data.get('data_scientist_mode') === 'on',
            filters: { paths, tags: [] },
          },
        }),
      )
      form.reset()
      setReload((n) => n + 1)
    } catch (caught) {
      setError(caught)
    }
  }

  return (
    <section class="bots">
      <h2>{t.bots.title}</h2>
      {bots.length === 0 && <p class="hint">{t.bots.empty}</p>}
      <ul class="cards">
        {bots.map((bot) => (
          <li class="card" key={bot.id}>
            <h3>
              {bot.label} {bot.id === defaultBotId && <span class="badge">{t.bots.default}</span>}
            </h3>
            <p>{bot.description}</p>
            <p class="hint">
              {(bot.filters?.paths ?? []).join(', ') || '/'} · {bot.locale} · {bot.auto_document_selector}
            </p>
          </li>
        ))}
      </ul>
      <form class="card bot-form" onSubmit={create} aria-labelledby="new-bot">
        <h3 id="new-bot">{t.bots.create}</h3>
        <label>
          {t.bots.label}
          <input name="label" required maxLength={100} />
        </label>
        <label>
          {t.bots.description}
          <input name="description" required maxLength={500} />
        </label>
        <label>
          {t.bots.promptName}
          <input name="prompt_name" maxLength={100} />
        </label>
        <label>
          {t.bots.prompt}
          <textarea name="prompt" required rows={3} />
        </label>
        <label>
          {t.bots.locale}
          <select name="locale">
            {LOCALES.map((locale) => (
              <option value={locale} key={locale}>
                {locale}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.bots.selector}
          <select name="selector">
            <option value="hidden">hidden</option>
            <option value="choose">choose</option>
            <option value="always">always</option>
          </select>
        </label>
        <label>
          {t.bots.paths}
          <input name="paths" placeholder="/policies/, /reports/" />
        </label>
        <label class="inline">
          <input type="checkbox" name="manual_filters" />
          {t.bots.manualFilters}
        </label>
        <label class="inline">
          <input type="checkbox" name="data_scientist_mode" />
          {t.bots.dataScientist}
        </label>
        <Problem error={error} />
        <button type="submit" class="primary">
          {t.bots.save}
        </button>
      </form>
    </section>
  )
}
