import { useEffect, useRef, useState } from 'preact/hooks'
import { quotedItems } from '../quote-match'
import { t } from '../strings'

/**
 * One page of a PDF drawn with pdf.js, loaded only when a PDF source is opened (pdf.js is most of
 * the console's weight), with the quoted passage marked on it: pdf.js lays the page's text over the
 * drawing (transparent), and the items of the quote are highlighted and scrolled into view. Eval
 * stays off: the Content-Security-Policy forbids it.
 */
export function PdfPage({ data, page, quote }: { data: ArrayBuffer; page: number; quote: string | null }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const layer = useRef<HTMLDivElement>(null)
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
        const text = layer.current
        if (cancelled || !target || !text) return
        const width = Math.min(target.parentElement?.clientWidth ?? 800, 900)
        const viewport = pdfPage.getViewport({ scale: width / pdfPage.getViewport({ scale: 1 }).width })
        target.width = Math.floor(viewport.width)
        target.height = Math.floor(viewport.height)
        await pdfPage.render({ canvas: target, viewport }).promise
        target.dataset.rendered = 'true'
        if (!quote) return
        // pdf.js sizes and places the text layer from these custom properties (pdf_viewer.css sets them per page).
        const frame = text.parentElement
        frame?.style.setProperty('--total-scale-factor', String(viewport.scale))
        frame?.style.setProperty('--scale-round-x', '1px')
        frame?.style.setProperty('--scale-round-y', '1px')
        text.replaceChildren()
        const textLayer = new pdfjs.TextLayer({
          textContentSource: pdfPage.streamTextContent(),
          container: text,
          viewport,
        })
        await textLayer.render()
        if (cancelled) return
        const marked = quotedItems(textLayer.textContentItemsStr, quote)
        for (const index of marked) textLayer.textDivs[index]?.classList.add('quote-mark')
        text.dataset.marked = String(marked.size)
        text.querySelector('.quote-mark')?.scrollIntoView({ block: 'center' })
      } catch {
        if (!cancelled) setFailed(true)
      }
    })()
    return () => {
      cancelled = true
      destroy?.()
    }
  }, [data, page, quote])

  if (failed) return <p class="hint">{t.chat.noPreview}</p>
  return (
    <div class="pdf-frame">
      <canvas ref={canvas} class="pdf-page" role="img" aria-label={t.chat.page(String(page))} />
      <div ref={layer} class="textLayer" aria-hidden="true" />
    </div>
  )
}
