import type { Block, TableRow } from '../model.js'
import { joinLines } from './text-blocks.js'
import type { XmlEvent } from './xml-scan.js'
import { scanXmlParts } from './zip-xml-parts.js'

/** What a chart part (`ppt/charts/chartN.xml`, DrawingML chart) says in words and numbers. */
export interface ChartText {
  readonly title: string
  /** Category labels (the first series that has them), by point index. */
  readonly categories: readonly string[]
  readonly series: readonly { readonly name: string; readonly values: readonly string[] }[]
}

/**
 * Reads the chart parts a deck's slides reference, by file name (officeparser names a chart node
 * by its relationship target's file name, e.g. `chart1.xml`).
 */
export async function readCharts(path: string, names: ReadonlySet<string>): Promise<Map<string, ChartText>> {
  const charts = new Map<string, ChartText>()
  if (names.size === 0) return charts
  const fileName = (part: string) => part.slice(part.lastIndexOf('/') + 1)
  await scanXmlParts(
    path,
    (part) => part.startsWith('ppt/charts/') && names.has(fileName(part)),
    (part) => {
      const reader = new ChartReader()
      charts.set(fileName(part), reader.chart)
      return (events) => reader.handle(events)
    },
  )
  return charts
}

/**
 * A chart as blocks on its slide: its title as a paragraph, then a table with one row per category
 * (header: the category axis title or "", then the series names) — the values a reader would read
 * off the chart, as the chart's own data cache holds them.
 */
export function chartBlocks(chart: ChartText, page: number | undefined): Block[] {
  const at = page === undefined ? {} : { page }
  const blocks: Block[] = []
  if (chart.title) blocks.push({ kind: 'paragraph', text: chart.title, ...at })
  const points = Math.max(chart.categories.length, ...chart.series.map((s) => s.values.length))
  if (points === 0) {
    const names = chart.series.map((s) => s.name).filter(Boolean)
    if (names.length > 0) blocks.push({ kind: 'paragraph', text: names.join(', '), ...at })
    return blocks
  }
  const header = ['', ...chart.series.map((s, i) => s.name || `Series ${i + 1}`)]
  const rows: TableRow[] = []
  for (let i = 0; i < points; i++) {
    const cells = [chart.categories[i] ?? String(i + 1), ...chart.series.map((s) => s.values[i] ?? '')]
    rows.push({ rowNumber: i + 2, cells })
  }
  blocks.push({ kind: 'table', header, rows, ...at })
  return blocks
}

interface MutableChart {
  title: string
  categories: string[]
  series: { name: string; values: string[] }[]
}

/** Collects a chart's title, series names, categories and values from its scanner events. */
class ChartReader {
  readonly chart: MutableChart = { title: '', categories: [], series: [] }
  private readonly stack: string[] = []
  private titleParts: string[] | null = null
  private point = 0
  private categories: string[] | null = null

  handle(events: readonly XmlEvent[]): void {
    for (const event of events) {
      if (event.type === 'open') this.open(event.name, event.attributes)
      else if (event.type === 'close') this.close(event.name)
      else this.text(event.text)
    }
  }

  private open(name: string, attributes: Readonly<Record<string, string>>): void {
    const parent = this.stack.at(-1)
    this.stack.push(name)
    if (this.stack.includes('c:extLst')) return
    if (name === 'c:title' && parent === 'c:chart') this.titleParts = []
    else if (name === 'c:ser') this.chart.series.push({ name: '', values: [] })
    else if (name === 'c:pt') this.point = Number.parseInt(attributes.idx ?? '', 10) || 0
    else if ((name === 'c:cat' || name === 'c:xVal') && this.chart.categories.length === 0) this.categories = []
  }

  private close(name: string): void {
    // Tolerate unbalanced markup: pop back to the element being closed.
    const at = this.stack.lastIndexOf(name)
    if (at >= 0) this.stack.length = at
    if (name === 'c:title' && this.titleParts) {
      this.chart.title ||= joinLines(this.titleParts.join('').split('\n'))
      this.titleParts = null
    } else if ((name === 'c:cat' || name === 'c:xVal') && this.categories) {
      this.chart.categories = this.categories
      this.categories = null
    } else if (name === 'a:p' && this.titleParts) this.titleParts.push('\n')
  }

  private text(text: string): void {
    const element = this.stack.at(-1)
    if (this.stack.includes('c:extLst')) return
    if (this.titleParts && (element === 'a:t' || element === 'c:v')) {
      this.titleParts.push(text)
      return
    }
    if (element !== 'c:v' && element !== 'a:t') return
    const series = this.chart.series.at(-1)
    if (!series || !this.stack.includes('c:ser')) return
    const value = text.trim()
    if (!value) return
    if (this.stack.includes('c:tx')) series.name = series.name ? `${series.name} ${value}` : value
    else if (this.categories && (this.stack.includes('c:cat') || this.stack.includes('c:xVal')))
      this.categories[this.point] = this.categories[this.point] ? `${this.categories[this.point]} ${value}` : value
    else if (this.stack.includes('c:val') || this.stack.includes('c:yVal')) series.values[this.point] = value
  }
}
