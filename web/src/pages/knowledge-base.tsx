import { useEffect, useState } from 'preact/hooks'
import { ApiError } from '../api'
import { DocumentPanel } from '../components/document-panel'
import { FolderTree } from '../components/folder-tree'
import { Pager } from '../components/pager'
import { Problem } from '../components/problem'
import { useWorkspace } from '../context'
import { t } from '../strings'
import type { KbEntry, Processing } from '../types'

const PAGE = 20
const POLL_MS = 1500

function nameOf(entry: KbEntry): string {
  const parts = entry.object_name.split('/').filter(Boolean)
  return `${parts.at(-1) ?? '/'}${entry.is_folder ? '/' : ''}`
}

function bytes(size: number | undefined): string {
  if (size === undefined) return ''
  if (size < 1024) return `${size} B`
  if (size < 1024 ** 2) return `${(size / 1024).toFixed(1)} KiB`
  return `${(size / 1024 ** 2).toFixed(1)} MiB`
}

export function KnowledgeBasePage() {
  const { api, companyId } = useWorkspace()
  const ids = { company_id: companyId }
  const [path, setPath] = useState('/')
  const [offset, setOffset] = useState(0)
  const [search, setSearch] = useState('')
  const [recursive, setRecursive] = useState(false)
  const [entries, setEntries] = useState<KbEntry[]>([])
  const [states, setStates] = useState<Record<string, Processing>>({})
  const [uploads, setUploads] = useState<Record<string, string>>({})
  const [error, setError] = useState<unknown>(null)
  const [reload, setReload] = useState(0)
  const [tags, setTags] = useState<{ id: string; name: string }[]>([])
  const [tagFilter, setTagFilter] = useState('')
  const [opened, setOpened] = useState<string | null>(null)
  // A tag filter shows the tagged documents of the whole subtree, with their paths.
  const wholeTree = recursive || tagFilter !== ''

  useEffect(() => {
    api.tags(companyId).then(setTags, setError)
  }, [reload])

  async function createTag(event: Event) {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const name = String(new FormData(form).get('tag') ?? '').trim()
    if (!name) return
    try {
      await api.call(
        api.client.POST('/apif/v2/company/{company_id}/knowledge-base/tags', { params: { path: ids }, body: { name } }),
      )
      form.reset()
      setReload((n) => n + 1)
    } catch (caught) {
      setError(caught)
    }
  }

  async function renameTag(tag: { id: string; name: string }) {
    const name = prompt(t.kb.renameTag, tag.name)?.trim()
    if (!name || name === tag.name) return
    try {
      await api.call(
        api.client.PATCH('/apif/v2/company/{company_id}/knowledge-base/tags/{tag_id}', {
          params: { path: { ...ids, tag_id: tag.id } },
          body: { name },
        }),
      )
      setReload((n) => n + 1)
    } catch (caught) {
      setError(caught)
    }
  }

  useEffect(() => {
    api
      .call(
        api.client.GET('/apif/v2/company/{company_id}/knowledge-base', {
          params: {
            path: ids,
            query: {
              path,
              offset,
              limit: PAGE,
              search: search || undefined,
              recursive: wholeTree,
              tag: tagFilter || undefined,
            },
          },
        }),
      )
      .then(setEntries, setError)
  }, [path, offset, search, recursive, tagFilter, reload])

  // Processing states, polled until every document on the page is PROCESSED or in ERROR.
  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    async function poll() {
      const next: Record<string, Processing> = {}
      for (const entry of entries.filter((e) => e.is_file)) {
        try {
          const object = await api.call(
            api.client.GET('/apif/v2/company/{company_id}/knowledge-base/{object_id}', {
              params: { path: { ...ids, object_id: entry.id } },
            }),
          )
          if ('processing' in object) next[entry.id] = object.processing
        } catch {
          // A document deleted meanwhile: the next listing drops it.
        }
      }
      if (stopped) return
      setStates(next)
      if (Object.values(next).some((p) => p.embedding_state === 'PENDING' || p.embedding_state === 'PROCESSING')) {
        timer = setTimeout(poll, POLL_MS)
      }
    }
    void poll()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [entries])

  async function createFolder(event: Event) {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const name = String(new FormData(form).get('name') ?? '').trim()
    if (!name) return
    try {
      await api.call(
        api.client.POST('/apif/v2/company/{company_id}/knowledge-base/folders', {
          params: { path: ids },
          body: { path: `${path}${name}` },
        }),
      )
      form.reset()
      setReload((n) => n + 1)
    } catch (caught) {
      setError(caught)
    }
  }

  async function uploadAll(files: readonly File[]) {
    setError(null)
    for (const file of files) {
      const say = (text: string) => setUploads((all) => ({ ...all, [file.name]: text }))
      const send = (overwrite: boolean) =>
        api.upload(companyId, file, { path, overwrite: String(overwrite) }, (share) =>
          say(t.kb.uploading(file.name, Math.round(share * 100))),
        )
      try {
        await send(false)
      } catch (caught) {
        if (caught instanceof ApiError && caught.code === 'already_exists') {
          if (confirm(t.kb.overwrite(file.name))) await send(true).catch(setError)
          else say(t.kb.skipped(file.name))
        } else setError(caught)
      }
    }
    setReload((n) => n + 1)
  }

  async function remove(entry: KbEntry) {
    if (!confirm(t.kb.confirmDelete(nameOf(entry)))) return
    try {
      await api.call(
        api.client.DELETE('/apif/v2/company/{company_id}/knowledge-base/{object_id}', {
          params: { path: { ...ids, object_id: entry.id } },
        }),
      )
      setReload((n) => n + 1)
    } catch (caught) {
      setError(caught)
    }
  }

  function openFolder(folder: string) {
    setPath(folder)
    setOffset(0)
  }

  const parent = path === '/' ? null : `${path.slice(0, path.slice(0, -1).lastIndexOf('/') + 1)}`
  return (
    <section class="kb">
      <h2>{t.kb.title}</h2>
      <div class="kb-layout">
        <FolderTree current={path} version={reload} onOpen={openFolder} />
        <div class="kb-main">
          <div class="toolbar">
            <p class="path">
              {t.kb.path}: <code>{path}</code>
              {parent !== null && (
                <button type="button" class="small" onClick={() => openFolder(parent)}>
                  {t.kb.up}
                </button>
              )}
            </p>
            <label>
              {t.kb.search}
              <input
                type="search"
                value={search}
                onInput={(e) => {
                  setSearch(e.currentTarget.value)
                  setOffset(0)
                }}
              />
            </label>
            <label class="inline">
              <input type="checkbox" checked={recursive} onChange={() => setRecursive(!recursive)} />
              {t.kb.recursive}
            </label>
          </div>
          <div class="toolbar">
            <form onSubmit={createFolder} class="inline-form">
              <label>
                {t.kb.folderName}
                <input name="name" pattern="[^/]+" required />
              </label>
              <button type="submit">{t.kb.newFolder}</button>
            </form>
            <div class="dropzone">
              <label
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.preventDefault()
                  void uploadAll([...(e.dataTransfer?.files ?? [])])
                }}
              >
                {t.kb.upload}
                <input
                  type="file"
                  multiple
                  onChange={(e) => void uploadAll([...(e.currentTarget.files ?? [])])}
                  aria-describedby="drop-hint"
                />
              </label>
              <span id="drop-hint" class="hint">
                {t.kb.dropHere}
              </span>
            </div>
          </div>
          <div class="toolbar">
            <form onSubmit={createTag} class="inline-form">
              <label>
                {t.kb.tagName}
                <input name="tag" required maxLength={100} />
              </label>
              <button type="submit">{t.kb.newTag}</button>
            </form>
            <label>
              {t.kb.filterTag}
              <select
                value={tagFilter}
                onChange={(e) => {
                  setTagFilter(e.currentTarget.value)
                  setOffset(0)
                }}
              >
                <option value="">{t.kb.allDocuments}</option>
                {tags.map((tag) => (
                  <option value={tag.id} key={tag.id}>
                    {tag.name}
                  </option>
                ))}
              </select>
            </label>
            <span class="row-actions">
              {tags.map((tag) => (
                <button type="button" class="small" key={tag.id} onClick={() => renameTag(tag)}>
                  {t.kb.renameTag} {tag.name}
                </button>
              ))}
            </span>
          </div>
          {Object.keys(uploads).length > 0 && (
            <ul class="uploads" aria-live="polite">
              {Object.entries(uploads).map(([name, text]) => (
                <li key={name}>{text}</li>
              ))}
            </ul>
          )}
          <Problem error={error} />
          <table>
            <thead>
              <tr>
                <th scope="col">{t.kb.name}</th>
                <th scope="col">{t.kb.size}</th>
                <th scope="col">{t.kb.state}</th>
                <th scope="col">{t.kb.actions}</th>
              </tr>
            </thead>
            <tbody>
              {entries.length === 0 && (
                <tr>
                  <td colSpan={4} class="hint">
                    {t.kb.empty}
                  </td>
                </tr>
              )}
              {entries.map((entry) => {
                const state = states[entry.id]
                return (
                  <tr key={entry.id}>
                    <td>
                      {entry.is_folder ? (
                        <button type="button" class="link" onClick={() => openFolder(entry.object_name)}>
                          {wholeTree ? entry.object_name : nameOf(entry)}
                        </button>
                      ) : (
                        <button type="button" class="link" onClick={() => setOpened(entry.id)}>
                          {wholeTree ? entry.object_name : nameOf(entry)}
                        </button>
                      )}
                    </td>
                    <td>{bytes(entry.size)}</td>
                    <td class={`state ${state?.embedding_state ?? ''}`}>
                      {state && (t.states[state.embedding_state] ?? state.embedding_state)}
                      {state?.embedding_state === 'PROCESSING' && state.progress.total > 0 && (
                        <progress max={state.progress.total} value={state.progress.done} aria-label={nameOf(entry)} />
                      )}
                      {state?.embedding_state === 'ERROR' && <span class="problem">{state.error_details}</span>}
                    </td>
                    <td>
                      <button type="button" class="small danger" onClick={() => remove(entry)}>
                        {t.kb.delete}
                      </button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
          <Pager offset={offset} limit={PAGE} count={entries.length} onChange={setOffset} />
        </div>
      </div>
      {opened && (
        <DocumentPanel
          documentId={opened}
          tags={tags}
          onClose={() => {
            setOpened(null)
            setReload((n) => n + 1)
          }}
        />
      )}
    </section>
  )
}
