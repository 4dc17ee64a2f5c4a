export type Category = 'text' | 'title' | 'table' | 'image'

/** A chunk as the chunker cuts it: its text and where it sits, before its metadata is written. */
export interface Located {
  readonly category: Category
  readonly text: string
  readonly tokens: number
  readonly pageNumber: string | null
  readonly rowIdx: string | null
  readonly row?: number
  readonly imageId?: string
}

/** `"3"` for one page or row, `"3-4"` for several. */
export function range(first: number, last: number): string {
  return first === last ? String(first) : `${first}-${last}`
}

export function pageRange(first: number | undefined, last: number | undefined): string | null {
  if (first === undefined || last === undefined) return null
  return range(Math.min(first, last), Math.max(first, last))
}
