import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { useWorkspace } from '../context'
import { t } from '../strings'

/** How many matches a search shows; typing more narrows them. */
const SHOWN = 100

/** A knowledge-base entry as a picker holds it: the value the form sends, and the path shown. */
interface Picked {
  readonly value: string
  readonly path: string
}

/**
 * Chooses knowledge-base entries, folders or files, for a form: the chosen ones as removable chips
 * (each sent as a field named `name`, its path or its id as `sends` says), and the knowledge base,
 * or the folders of `roots`, searched by name to add more. The root folder `/` is offered first
 * when choosing folders. `accept` narrows the files offered (the tables, for data analysis).
 */
export function PathPicker(props: {
  name: string
  legend: ComponentChildren
  kind: 'folder' | 'file'
  initial?: readonly string[]
  sends?: 'path' | 'id'
  roots?: readonly string[]
  accept?: (path: string) => boolean
}) {
  const { api, companyId } = useWorkspace()
  const { name, legend, kind, initial = [], sends = 'path', roots = [], accept } = props
  const [chosen, setChosen] = useState<Picked[]>(initial.map((path) => ({ value: path, path })))
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<Picked[] | null>(null)
  const [more, setMore] = useState(false)

  useEffect(() => {
    const timer = setTimeout(() => {
      const folders = roots.length > 0 ? roots : ['/']
      Promise.all(
        folders.map((path) =>
          api.call(
            api.client.GET('/apif/v2/company/{company_id}/knowledge-base', {
              params: {
                path: { company_id: companyId },
                query: { path, recursive: true, search: query || undefined, limit: SHOWN },
              },
            }),
          ),
        ),
      )
        .then((lists) => {
          const picked = lists
            .flat()
            .filter((entry) => (kind === 'folder' ? entry.is_folder : entry.is_file))
            .filter((entry) => accept?.(entry.object_name) ?? true)
            .map((entry) => ({ value: sends === 'id' ? entry.id : entry.object_name, path: entry.object_name }))
          const root = { value: '/', path: '/' }
          setFound(kind === 'folder' && !query && roots.length === 0 ? [root, ...picked] : picked)
          setMore(lists.some((list) => list.length === SHOWN))
        })
        .catch(() => setFound([]))
    }, 200)
    return () => clearTimeout(timer)
  }, [query, roots.join('\n')])

  const isChosen = (entry: Picked) => chosen.some((each) => each.value === entry.value)
  const toggle = (entry: Picked) =>
    setChosen((now) => (isChosen(entry) ? now.filter((each) => each.value !== entry.value) : [...now, entry]))
  const searchLabel = kind === 'folder' ? t.picker.findFolder : t.picker.findFile

  return (
    <fieldset class="path-picker">
      <legend>{legend}</legend>
      {chosen.length === 0 ? (
        <p class="hint">{kind === 'folder' ? t.picker.noFolder : t.picker.noFile}</p>
      ) : (
        <ul class="chips" aria-label={t.picker.chosen}>
          {chosen.map((entry) => (
            <li key={entry.value}>
              <input type="hidden" name={name} value={entry.value} />
              {entry.path}
              <button
                type="button"
                class="small"
                aria-label={t.picker.remove(entry.path)}
                onClick={() => toggle(entry)}
              >
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
        {found?.map((entry) => (
          <li key={entry.value}>
            <label class="inline">
              <input type="checkbox" checked={isChosen(entry)} onChange={() => toggle(entry)} />
              {entry.path}
            </label>
          </li>
        ))}
      </ul>
      {found?.length === 0 && <p class="hint">{t.picker.nothing}</p>}
      {more && <p class="hint">{t.picker.more(SHOWN)}</p>}
    </fieldset>
  )
}
