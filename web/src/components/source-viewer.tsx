import { useEffect, useRef, useState } from 'preact/hooks'
import { useWorkspace } from '../context'
import { t } from '../strings'
import type { Source } from '../types'
import { Problem } from './problem'

/** A cited source opened: where it is, the passage quoted, and the original file to download. */
export function SourceViewer({ source, onClose }: { source: Source; onClose: () => void }) {
  const { api, companyId } = useWorkspace()
  const dialog = useRef<HTMLDialogElement>(null)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    dialog.current?.showModal()
  }, [])

  async function download() {
    try {
      const response = await api.send('GET', `/company/${companyId}/knowledge-base/${source.id}/file`, {
        accept: '*/*',
      })
      const url = URL.createObjectURL(await response.blob())
      const link = document.createElement('a')
      link.href = url
      link.download = source.filename
      link.click()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch (caught) {
      setError(caught)
    }
  }

  return (
    <dialog ref={dialog} class="viewer" aria-labelledby="viewer-title" onClose={onClose}>
      <h2 id="viewer-title">{source.object_name}</h2>
      <p class="hint">
        {source.page_number && t.chat.page(source.page_number)}
        {source.row_idx && t.chat.rows(source.row_idx)}
      </p>
      <blockquote class="quoted">{source.chunk_content}</blockquote>
      <Problem error={error} />
      <div class="actions">
        <button type="button" onClick={download}>
          {t.chat.download}
        </button>
        <button type="button" class="primary" onClick={() => dialog.current?.close()}>
          {t.chat.close}
        </button>
      </div>
    </dialog>
  )
}
