import { useEffect, useState } from 'preact/hooks'
import { useWorkspace } from '../context'
import { t } from '../strings'

/** How many matches a search shows; typing more narrows them. */
const SHOWN = 100

/**
 * Chooses knowledge-base paths, folders or files, for a form: the chosen ones as removable chips
 * (each sent as a field named `name`), and the knowledge base searched by name to add more. The
 * root folder `/` is offered first when choosing folders.
 */
export function PathPicker(props: {
  name: string
  legend: string
  kind: 'folder' | 'file'
  initial: readonly string[]
}) {
  const { api, companyId } = useWorkspace()
  const { name, legend, kind, initial } = props
  const [chosen, setChosen] = useState<string[]>([...initial])
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<string[] | null>(null)
  const [more, setMore] = useState(false)

  useEffect(() => {
    const timer = setTimeout(() => {
      api
        .call(
          api.client.GET('/apif/v2/company/{company_id}/knowledge-base', {
            params: {
              path: { company_id: companyId },
              query: { path: '/', recursive: true, search: query || undefined, limit: SHOWN },
            },
          }),
        )
        .then((entries) => {
          const paths = entries
            .filter((entry) => (kind === 'folder' ? entry.is_folder : entry.is_file))
            .map((entry) => entry.object_name)
          setFound(kind === 'folder' && !query ? ['/', ...paths] : paths)
          setMore(entries.length === SHOWN)
        })
        .catch(() => setFound([]))
    }, 200)
    return () => clearTimeout(timer)
  }, [query])

  const toggle = (path: string) =>
    setChosen((now) => (now.includes(path) ? now.filter((each) => each !== path) : [...now, path]))
  const searchLabel = kind === 'folder' ? t.picker.findFolder : t.picker.findFile

  return (
    <fieldset class="path-picker">
      <legend>{legend}</legend>
      {chosen.length === 0 ? (
        <p class="hint">{kind === 'folder' ? t.picker.noFolder : t.picker.noFile}</p>
      ) : (
        <ul class="chips" aria-label={t.picker.chosen}>
          {chosen.map((path) => (
            <li key={path}>
              <input type="hidden" name={name} value={path} />
              {path}
              <button type="button" class="small" aria-label={t.picker.remove(path)} onClick={() => toggle(path)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        type="search"
        aria-label={searchLabel}
        placeholder={searchLabel}
        value={query}
        onInput={(event) => setQuery((event.currentTarget as HTMLInputElement).value)}
      />
      <ul class="picker-results">
        {found?.map((path) => (
          <li key={path}>
            <label class="inline">
              <input type="checkbox" checked={chosen.includes(path)} onChange={() => toggle(path)} />
              {path}
            </label>
          </li>
        ))}
      </ul>
      {found?.length === 0 && <p class="hint">{t.picker.nothing}</p>}
      {more && <p class="hint">{t.picker.more(SHOWN)}</p>}
    </fieldset>
  )
}
