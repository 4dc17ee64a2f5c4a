import { useEffect, useState } from 'preact/hooks'
import { Pager } from '../components/pager'
import { PathPicker } from '../components/path-picker'
import { Problem } from '../components/problem'
import { useWorkspace } from '../context'
import { t } from '../strings'
import type { Bot } from '../types'

/** The answer languages offered (the bot's locale); AUTOMATIC answers in the question's language. */
const LOCALES = ['AUTOMATIC', 'en', 'fr', 'de', 'es', 'it', 'pt', 'nl'] as const
const SELECTORS = ['hidden', 'choose', 'always'] as const
/** Bots listed per page. */
const PAGE = 20

interface Tag {
  id: string
  name: string
}

/** The paths a picker named `name` chose. */
const pathsOf = (data: FormData, name: string) => data.getAll(name).map(String)

const folderPath = (path: string) => (path.endsWith('/') ? path : `${path}/`)

export function BotsPage() {
  const { api, companyId, defaultBotId } = useWorkspace()
  const [bots, setBots] = useState<Bot[]>([])
  const [tags, setTags] = useState<Tag[]>([])
  const [editing, setEditing] = useState<Bot | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [reload, setReload] = useState(0)
  const [offset, setOffset] = useState(0)
  const company = { company_id: companyId }

  useEffect(() => {
    api
      .call(
        api.client.GET('/apif/v2/company/{company_id}/bot', {
          params: { path: company, query: { offset, limit: PAGE } },
        }),
      )
      .then(setBots, setError)
    api.tags(companyId).then(setTags, setError)
  }, [reload, offset])

  /** The bot the form describes, as create and edit both take it. */
  function botOf(data: FormData) {
    return {
      label: String(data.get('label')),
      description: String(data.get('description')),
      prompt: { name: String(data.get('prompt_name') || 'default'), prompt: String(data.get('prompt')) },
      locale: LOCALES.find((locale) => locale === data.get('locale')) ?? 'AUTOMATIC',
      auto_document_selector: SELECTORS.find((selector) => selector === data.get('selector')) ?? 'choose',
      manual_filters: data.get('manual_filters') === 'on',
      data_scientist_mode: data.get('data_scientist_mode') === 'on',
      icon: { name: String(data.get('icon') || 'smart_toy'), type: 'material' as const },
    }
  }

  async function submit(event: Event) {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    const scope = { paths: pathsOf(data, 'paths').map(folderPath), tags: pathsOf(data, 'tag') }
    setError(null)
    try {
      if (editing) {
        await api.call(
          api.client.PATCH('/apif/v2/company/{company_id}/bot/{bot_id}', {
            params: { path: { ...company, bot_id: editing.id } },
            body: {
              ...botOf(data),
              filters: {
                ...scope,
                default_documents: pathsOf(data, 'default_documents'),
                default_auto_documents: pathsOf(data, 'default_auto_documents'),
              },
            },
          }),
        )
      } else {
        await api.call(
          api.client.POST('/apif/v2/company/{company_id}/bot', {
            params: { path: company },
            body: { ...botOf(data), filters: scope },
          }),
        )
      }
      setEditing(null)
      setReload((n) => n + 1)
    } catch (caught) {
      setError(caught)
    }
  }

  const bot = editing
  return (
    <section class="bots">
      <h2>{t.bots.title}</h2>
      {bots.length === 0 && <p class="hint">{t.bots.empty}</p>}
      <ul class="cards">
        {bots.map((each) => (
          <li class="card" key={each.id}>
            <h3>
              {each.label} {each.id === defaultBotId && <span class="badge">{t.bots.default}</span>}
            </h3>
            <p>{each.description}</p>
            <p class="hint">
              {(each.filters?.paths ?? []).join(', ') || '/'} · {each.locale} · {each.auto_document_selector}
            </p>
            <button type="button" class="small" onClick={() => setEditing(each)}>
              {t.bots.edit}
            </button>
          </li>
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} count={bots.length} onChange={setOffset} />
      <form
        class="card bot-form"
        onSubmit={submit}
        aria-labelledby="bot-form-title"
        key={`${bot?.id ?? 'new'}:${reload}`}
      >
        <h3 id="bot-form-title">{bot ? t.bots.editing(bot.label) : t.bots.create}</h3>
        <label>
          {t.bots.label}
          <input name="label" required maxLength={100} value={bot?.label} />
        </label>
        <label>
          {t.bots.description}
          <input name="description" required maxLength={500} value={bot?.description} />
        </label>
        <label>
          {t.bots.promptName}
          <input name="prompt_name" maxLength={100} value={bot?.prompt.name} />
        </label>
        <label>
          {t.bots.prompt}
          <textarea name="prompt" required rows={3} value={bot?.prompt.prompt} />
        </label>
        <label>
          {t.bots.locale}
          <select name="locale" value={bot?.locale ?? 'AUTOMATIC'}>
            {LOCALES.map((locale) => (
              <option value={locale} key={locale}>
                {locale}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.bots.icon}
          <input name="icon" maxLength={100} value={bot?.icon?.name ?? 'smart_toy'} />
        </label>
        <label>
          {t.bots.selector}
          <select name="selector" value={bot?.auto_document_selector ?? 'choose'}>
            {SELECTORS.map((selector) => (
              <option value={selector} key={selector}>
                {selector}
              </option>
            ))}
          </select>
        </label>
        <PathPicker name="paths" legend={t.bots.paths} kind="folder" initial={bot?.filters?.paths ?? []} />
        <fieldset class="tag-picker">
          <legend>{t.bots.tags}</legend>
          {tags.map((tag) => (
            <label class="inline" key={tag.id}>
              <input type="checkbox" name="tag" value={tag.id} checked={bot?.filters?.tags?.includes(tag.id)} />
              {tag.name}
            </label>
          ))}
        </fieldset>
        {bot && (
          <>
            <PathPicker
              name="default_documents"
              legend={t.bots.defaultDocuments}
              kind="file"
              initial={bot.filters?.default_documents ?? []}
            />
            <PathPicker
              name="default_auto_documents"
              legend={t.bots.defaultAutoDocuments}
              kind="file"
              initial={bot.filters?.default_auto_documents ?? []}
            />
          </>
        )}
        <label class="inline">
          <input type="checkbox" name="manual_filters" checked={bot?.manual_filters} />
          {t.bots.manualFilters}
        </label>
        <label class="inline">
          <input type="checkbox" name="data_scientist_mode" checked={bot?.data_scientist_mode} />
          {t.bots.dataScientist}
        </label>
        <Problem error={error} />
        <div class="actions">
          {bot && (
            <button type="button" onClick={() => setEditing(null)}>
              {t.bots.cancel}
            </button>
          )}
          <button type="submit" class="primary">
            {t.bots.save}
          </button>
        </div>
      </form>
    </section>
  )
}
