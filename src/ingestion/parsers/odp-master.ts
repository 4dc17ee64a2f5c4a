import type { Block } from '../model.js'
import { joinLines } from './text-blocks.js'
import type { XmlEvent } from './xml-scan.js'
import { scanXmlParts } from './zip-xml-parts.js'

/** Master-page frames whose text is a field (numbers, dates) or a template, never document text. */
const NOT_TEXT_CLASSES = new Set(['page-number', 'date-time', 'title', 'outline', 'subtitle', 'notes', 'page'])
/** Field elements whose content is computed per slide. */
const FIELDS = new Set(['text:page-number', 'text:page-count', 'text:date', 'text:time', 'presentation:date-time'])

interface MasterFrame {
  /** `footer`, `header` or '' for any other object drawn from the master. */
  readonly kind: 'footer' | 'header' | ''
  /** Text parts; null stands for the slide's own footer/header declaration (`<presentation:footer/>`). */
  readonly parts: (string | null)[]
}

interface Slide {
  readonly master: string
  readonly style: string
  readonly footerDecl: string
  readonly headerDecl: string
}

type Display = Partial<Record<'footer' | 'header' | 'objects', boolean>>

/**
 * Text an ODP slide shows from its master page (styles.xml): the footer ("Company confidential"),
 * a header, and other text objects of the master; not the page-number and date fields nor the empty
 * title/outline templates. A footer written per slide (`presentation:footer-decl`) is read too.
 * The slide's drawing-page style decides what is shown (`presentation:display-footer`…, then the
 * master's style, shown by default).
 *
 * Each distinct text is returned once per document, on the first slide that shows it: repeated on
 * every slide it would add the same words to every chunk of the deck, and a citation of that
 * slide still shows where the text is.
 */
export async function odpMasterTexts(path: string): Promise<Map<number, string[]>> {
  const reader = new OdpReader()
  await scanXmlParts(
    path,
    (name) => name === 'styles.xml' || name === 'content.xml',
    () => (events) => reader.handle(events),
  )
  const out = new Map<number, string[]>()
  const seen = new Set<string>()
  reader.slides.forEach((slide, i) => {
    const frames = reader.masters.get(slide.master) ?? []
    const display = {
      ...reader.display.get(reader.masterStyles.get(slide.master) ?? ''),
      ...reader.display.get(slide.style),
    }
    for (const frame of frames) {
      if ((display[frame.kind || 'objects'] ?? true) === false) continue
      const decl = frame.kind === 'footer' ? slide.footerDecl : frame.kind === 'header' ? slide.headerDecl : ''
      const text = joinLines(
        frame.parts
          .map((part) => part ?? reader.decls.get(decl) ?? '')
          .join('')
          .split('\n'),
      )
      if (!text || seen.has(text)) continue
      seen.add(text)
      out.set(i + 1, [...(out.get(i + 1) ?? []), text])
    }
  })
  return out
}

/** The blocks with each slide's master texts appended after that slide's own blocks. */
export function withMasterTexts(blocks: readonly Block[], texts: ReadonlyMap<number, string[]>): Block[] {
  if (texts.size === 0) return [...blocks]
  const out: Block[] = []
  const pending = [...texts.entries()].sort(([a], [b]) => a - b)
  const flushUpTo = (page: number) => {
    while (pending.length > 0 && (pending[0]?.[0] ?? 0) <= page) {
      const [slide, lines] = pending.shift() as [number, string[]]
      for (const text of lines) out.push({ kind: 'paragraph', text, page: slide })
    }
  }
  for (const block of blocks) {
    if (block.page !== undefined) flushUpTo(block.page - 1)
    out.push(block)
  }
  flushUpTo(Number.POSITIVE_INFINITY)
  return out
}

/** Reads master pages, slides, drawing-page styles and footer/header declarations from both parts. */
class OdpReader {
  readonly masters = new Map<string, MasterFrame[]>()
  readonly masterStyles = new Map<string, string>()
  readonly slides: Slide[] = []
  readonly display = new Map<string, Display>()
  readonly decls = new Map<string, string>()
  private master: string | null = null
  private notesDepth = 0
  private frame: MasterFrame | null = null
  private frameDepth = 0
  private fieldDepth = 0
  private styleName: string | null = null
  private decl: { name: string; parts: string[] } | null = null
  private pageDepth = 0

  handle(events: readonly XmlEvent[]): void {
    for (const event of events) {
      if (event.type === 'open') this.open(event.name, event.attributes)
      else if (event.type === 'close') this.close(event.name)
      else if (this.decl) this.decl.parts.push(event.text)
      else if (this.frame && this.fieldDepth === 0) this.frame.parts.push(event.text)
    }
  }

  private open(name: string, a: Readonly<Record<string, string>>): void {
    if (name === 'style:master-page') {
      this.master = a['style:name'] ?? ''
      this.masters.set(this.master, [])
      if (a['draw:style-name']) this.masterStyles.set(this.master, a['draw:style-name'])
    } else if (name === 'presentation:notes') this.notesDepth++
    else if (name === 'draw:page') {
      this.pageDepth++
      this.slides.push({
        master: a['draw:master-page-name'] ?? '',
        style: a['draw:style-name'] ?? '',
        footerDecl: a['presentation:use-footer-name'] ?? '',
        headerDecl: a['presentation:use-header-name'] ?? '',
      })
    } else if (name === 'style:style' && a['style:family'] === 'drawing-page') this.styleName = a['style:name'] ?? null
    else if (name === 'style:drawing-page-properties' && this.styleName) {
      const flag = (value: string | undefined) => (value === undefined ? undefined : value === 'true')
      const display: Display = {}
      for (const [key, attribute] of [
        ['footer', 'presentation:display-footer'],
        ['header', 'presentation:display-header'],
        ['objects', 'presentation:background-objects-visible'],
      ] as const) {
        const value = flag(a[attribute])
        if (value !== undefined) display[key] = value
      }
      this.display.set(this.styleName, display)
    } else if (name === 'presentation:footer-decl' || name === 'presentation:header-decl') {
      this.decl = { name: a['presentation:name'] ?? '', parts: [] }
    } else if (this.master !== null && this.notesDepth === 0 && this.pageDepth === 0) this.openInMaster(name, a)
  }

  private openInMaster(name: string, a: Readonly<Record<string, string>>): void {
    if (this.frame) {
      this.frameDepth++
      if (FIELDS.has(name)) this.fieldDepth++
      if (name === 'presentation:footer' || name === 'presentation:header') this.frame.parts.push(null)
      else if (name === 'text:s' || name === 'text:tab' || name === 'text:line-break') this.frame.parts.push(' ')
      return
    }
    if (name !== 'draw:frame' && name !== 'draw:custom-shape' && name !== 'draw:rect') return
    const cls = a['presentation:class'] ?? ''
    if (a['presentation:placeholder'] === 'true' || NOT_TEXT_CLASSES.has(cls)) return
    this.frame = { kind: cls === 'footer' || cls === 'header' ? cls : '', parts: [] }
    this.frameDepth = 1
  }

  private close(name: string): void {
    if (name === 'style:master-page') this.master = null
    else if (name === 'presentation:notes') this.notesDepth = Math.max(0, this.notesDepth - 1)
    else if (name === 'draw:page') this.pageDepth = Math.max(0, this.pageDepth - 1)
    else if (name === 'style:style') this.styleName = null
    else if ((name === 'presentation:footer-decl' || name === 'presentation:header-decl') && this.decl) {
      this.decls.set(this.decl.name, joinLines(this.decl.parts))
      this.decl = null
    }
    if (!this.frame || this.master === null) return
    if (FIELDS.has(name)) this.fieldDepth = Math.max(0, this.fieldDepth - 1)
    if (name === 'text:p' || name === 'text:h') this.frame.parts.push('\n')
    if (--this.frameDepth === 0) {
      this.masters.get(this.master)?.push(this.frame)
      this.frame = null
      this.fieldDepth = 0
    }
  }
}
