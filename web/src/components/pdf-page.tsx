import { useEffect, useRef, useState } from 'preact/hooks'
import { t } from '../strings'

/**
 * One page of a PDF drawn with pdf.js, loaded only when a PDF source is opened (pdf.js is most of
 * the console's weight). Eval stays off: the Content-Security-Policy forbids it.
 */
export function PdfPage({ data, page }: { data: ArrayBuffer; page: number }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    let cancelled = false
    let destroy: (() => unknown) | undefined
    void (async () => {
      try {
        const [pdfjs, worker] = await Promise.all([
          import('pdfjs-dist'),
          import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
        ])
        pdfjs.GlobalWorkerOptions.workerSrc = worker.default
        const task = pdfjs.getDocument({ data: new Uint8Array(data), isEvalSupported: false })
        destroy = () => task.destroy()
        const document = await task.promise
        const pdfPage = await document.getPage(Math.min(Math.max(1, page), document.numPages))
        const target = canvas.current
        if (cancelled || !target) return
        const width = Math.min(target.parentElement?.clientWidth ?? 800, 900)
        const viewport = pdfPage.getViewport({ scale: width / pdfPage.getViewport({ scale: 1 }).width })
        target.width = Math.floor(viewport.width)
        target.height = Math.floor(viewport.height)
        await pdfPage.render({ canvas: target, viewport }).promise
        target.dataset.rendered = 'true'
      } catch {
        if (!cancelled) setFailed(true)
      }
    })()
    return () => {
      cancelled = true
      destroy?.()
    }
  }, [data, page])

  if (failed) return <p class="hint">{t.chat.noPreview}</p>
  return <canvas ref={canvas} class="pdf-page" role="img" aria-label={t.chat.page(String(page))} />
}
