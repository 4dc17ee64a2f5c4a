/** The parts of a parsed (domhandler) node the HTML walkers read (HTML pages, Word documents read as HTML). */
export interface DomNode {
  readonly type: string
  readonly name?: string
  readonly data?: string
  readonly children?: readonly DomNode[]
  readonly attribs?: Readonly<Record<string, string>>
}
