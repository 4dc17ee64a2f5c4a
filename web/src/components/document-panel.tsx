import { useEffect, useRef, useState } from 'preact/hooks'
import { useWorkspace } from '../context'
import { saveFile } from '../save-file'
import { t } from '../strings'
import { Problem } from './problem'

interface Tag {
  id: string
  name: string
}

/**
 * One document opened from the knowledge base: its description, loader and card, its tags (to
 * attach or detach), its chunks as the index holds them, and the original file to download.
 */
export function DocumentPanel(props: { documentId: string; tags: readonly Tag[]; onClose: () => void }) {
  const { api, companyId } = useWorkspace()
  const { documentId, tags, onClose } = props
  const dialog = useRef<HTMLDialogElement>(null)
  const ids = { company_id: companyId, object_id: documentId }
  const [document, setDocument] = useState<Awaited<ReturnType<typeof load>> | null>(null)
  const [chunks, setChunks] = useState<string[] | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [saved, setSaved] = useState(false)

  function load() {
    return api.call(
      api.client.GET('/apif/v2/company/{company_id}/knowledge-base/{object_id}', { params: { path: ids } }),
    )
  }

  useEffect(() => {
    dialog.current?.showModal()
    load().then(setDocument, setError)
  }, [documentId])

  async function save(event: Event) {
    event.preventDefault()
    const data = new FormData(event.currentTarget as HTMLFormElement)
    const description = String(data.get('description') ?? '')
    const currentDescription = document && 'description' in document ? document.description : ''
    setSaved(false)
    try {
      await api.call(
        api.client.PATCH('/apif/v2/company/{company_id}/knowledge-base/{object_id}/metadata', {
          params: { path: ids },
          body: {
            // Sent only when edited: a description given makes it manual, no longer generated.
            ...(description !== currentDescription ? { description } : {}),
            loader_type: data.get('loader_type') === 'ADVANCED' ? 'ADVANCED' : 'STANDARD',
            tags: data.getAll('tag').map(String),
          },
        }),
      )
      setDocument(await load())
      setSaved(true)
    } catch (caught) {
      setError(caught)
    }
  }

  async function showChunks() {
    try {
      const body = await api.call(
        api.client.GET('/apif/v2/company/{company_id}/knowledge-base/{object_id}/chunks', { params: { path: ids } }),
      )
      setChunks(body.documents ?? [])
    } catch (caught) {
      setError(caught)
    }
  }

  async function download() {
    try {
      const response = await api.send('GET', `/company/${companyId}/knowledge-base/${documentId}/file`, {
        accept: '*/*',
      })
      saveFile(await response.blob(), document?.object_name.split('/').at(-1) ?? 'document')
    } catch (caught) {
      setError(caught)
    }
  }

  const file = document && 'processing' in document ? document : null
  return (
    <dialog ref={dialog} class="viewer" aria-labelledby="document-title" onClose={onClose}>
      <h2 id="document-title">{document?.object_name ?? '…'}</h2>
      <Problem error={error} />
      {file && (
        <form onSubmit={save}>
          {file.document_card && (
            <p class="hint">
              {[
                file.document_card.title,
                file.document_card.subjects.join(', '),
                file.document_card.period?.label,
                file.document_card.kind,
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
          )}
          <label>
            {t.kb.description}
            <textarea name="description" rows={3} value={file.description} />
          </label>
          <label>
            {t.kb.loader}
            <select name="loader_type" value={file.loader_type_preference === 'advanced' ? 'ADVANCED' : 'STANDARD'}>
              <option value="STANDARD">STANDARD</option>
              <option value="ADVANCED">ADVANCED</option>
            </select>
          </label>
          <fieldset class="tag-picker">
            <legend>{t.kb.tags}</legend>
            {tags.length === 0 && <p class="hint">{t.kb.noTags}</p>}
            {tags.map((tag) => (
              <label class="inline" key={tag.id}>
                <input type="checkbox" name="tag" value={tag.id} checked={file.tags.includes(tag.id)} />
                {tag.name}
              </label>
            ))}
          </fieldset>
          {saved && (
            <p class="notice" role="status">
              {t.kb.saved}
            </p>
          )}
          <div class="actions">
            <button type="button" onClick={showChunks}>
              {t.kb.chunks}
            </button>
            <button type="button" onClick={download}>
              {t.chat.download}
            </button>
            <button type="submit">{t.bots.save}</button>
            <button type="button" class="primary" onClick={() => dialog.current?.close()}>
              {t.chat.close}
            </button>
          </div>
        </form>
      )}
      {chunks && (
        <ol class="chunks" aria-label={t.kb.chunks}>
          {chunks.map((text, i) => (
            <li key={i}>
              <blockquote>{text}</blockquote>
            </li>
          ))}
        </ol>
      )}
    </dialog>
  )
}
