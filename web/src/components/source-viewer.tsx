import { useEffect, useRef, useState } from 'preact/hooks'
import { useWorkspace } from '../context'
import { saveFile } from '../save-file'
import { t } from '../strings'
import type { Source } from '../types'
import { PdfPage } from './pdf-page'
import { Problem } from './problem'

/** The first page of `3` or `3-4`; null without one. */
function firstPage(pageNumber: string | null): number | null {
  const match = pageNumber?.match(/\d+/)
  return match ? Number(match[0]) : null
}

/**
 * A cited source opened: where it is, the passage quoted, the PDF page it is on drawn beside it, and
 * the original file to download.
 */
export function SourceViewer({ source, onClose }: { source: Source; onClose: () => void }) {
  const { api, companyId } = useWorkspace()
  const dialog = useRef<HTMLDialogElement>(null)
  const [error, setError] = useState<unknown>(null)
  const [pdf, setPdf] = useState<ArrayBuffer | null>(null)
  const page = firstPage(source.page_number)
  const isPdf = /\.pdf$/i.test(source.filename) && page !== null

  useEffect(() => {
    dialog.current?.showModal()
    if (isPdf) fetchFile().then((blob) => blob.arrayBuffer().then(setPdf), setError)
  }, [])

  async function fetchFile(): Promise<Blob> {
    const response = await api.send('GET', `/company/${companyId}/knowledge-base/${source.id}/file`, { accept: '*/*' })
    return response.blob()
  }

  async function download() {
    try {
      saveFile(await fetchFile(), source.filename)
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
      {isPdf &&
        page !== null &&
        (pdf ? <PdfPage data={pdf} page={page} quote={source.chunk_content} /> : <p class="hint">{t.chat.loading}</p>)}
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
