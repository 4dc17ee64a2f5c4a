/**
 * An immutable block of postings in compressed-row form: per term, a run of (chunk ordinal, tf)
 * pairs in two typed arrays. A company's in-memory index is a few of these (one per load batch or
 * per refresh, merged from time to time), so a change adds a small segment instead of rewriting
 * the large ones, and a million distinct terms cost a Map entry each, not two typed arrays each.
 */
export interface Segment {
  /** Term → its row in `offsets`. */
  readonly terms: ReadonlyMap<string, number>
  /** Postings of term row r are at [offsets[r], offsets[r + 1]). */
  readonly offsets: Int32Array
  readonly ordinals: Int32Array
  readonly tfs: Int32Array
  /** Chunks the segment was built for (dead ones included until merged away). */
  readonly chunkCount: number
  /** How many of those chunks were removed since the segment was built. */
  dead: number
  /** Approximate heap size: what the memory budget counts. */
  readonly bytes: number
}

/** Bytes a Map entry with a short string key takes, roughly (V8: entry, hash slot, string). */
const TERM_OVERHEAD = 64

function bytesOf(terms: ReadonlyMap<string, number>, arrays: readonly Int32Array[]): number {
  let bytes = terms.size * TERM_OVERHEAD
  for (const term of terms.keys()) bytes += term.length * 2
  for (const array of arrays) bytes += array.byteLength
  return bytes
}

function grow(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array
  const next = new Int32Array(Math.max(needed, array.length * 2))
  next.set(array)
  return next
}

/** Collects postings in any order, then lays them out by term (a counting sort). */
export class SegmentBuilder {
  private readonly termRows = new Map<string, number>()
  private rowOf = new Int32Array(1024)
  private ordinals = new Int32Array(1024)
  private tfs = new Int32Array(1024)
  private count = 0

  /** Postings added so far. */
  get size(): number {
    return this.count
  }

  add(term: string, ordinal: number, tf: number): void {
    let row = this.termRows.get(term)
    if (row === undefined) {
      row = this.termRows.size
      this.termRows.set(term, row)
    }
    const at = this.count++
    this.rowOf = grow(this.rowOf, this.count)
    this.ordinals = grow(this.ordinals, this.count)
    this.tfs = grow(this.tfs, this.count)
    this.rowOf[at] = row
    this.ordinals[at] = ordinal
    this.tfs[at] = tf
  }

  /** The segment, built for `chunkCount` chunks. */
  build(chunkCount: number): Segment {
    const rows = this.termRows.size
    const offsets = new Int32Array(rows + 1)
    for (let i = 0; i < this.count; i++) {
      const next = (this.rowOf[i] as number) + 1
      offsets[next] = (offsets[next] as number) + 1
    }
    for (let r = 0; r < rows; r++) offsets[r + 1] = (offsets[r + 1] as number) + (offsets[r] as number)
    const fill = offsets.slice(0, rows)
    const ordinals = new Int32Array(this.count)
    const tfs = new Int32Array(this.count)
    for (let i = 0; i < this.count; i++) {
      const row = this.rowOf[i] as number
      const at = fill[row] as number
      fill[row] = at + 1
      ordinals[at] = this.ordinals[i] as number
      tfs[at] = this.tfs[i] as number
    }
    const terms = new Map(this.termRows)
    const bytes = bytesOf(terms, [offsets, ordinals, tfs])
    return { terms, offsets, ordinals, tfs, chunkCount, dead: 0, bytes }
  }
}

/**
 * One segment with the postings of `segments` whose chunk `keep` accepts, chunk ordinals passed
 * through `renumber`: merging drops removed chunks and can renumber the survivors.
 */
export function mergeSegments(
  segments: readonly Segment[],
  keep: (ordinal: number) => boolean,
  renumber: (ordinal: number) => number = (ordinal) => ordinal,
): Segment {
  const chunkCount = segments.reduce((sum, segment) => sum + segment.chunkCount - segment.dead, 0)
  const builder = new SegmentBuilder()
  for (const segment of segments) {
    for (const [term, row] of segment.terms) {
      const end = segment.offsets[row + 1] as number
      for (let i = segment.offsets[row] as number; i < end; i++) {
        const ordinal = segment.ordinals[i] as number
        if (keep(ordinal)) builder.add(term, renumber(ordinal), segment.tfs[i] as number)
      }
    }
  }
  return builder.build(Math.max(0, chunkCount))
}

/**
 * Builds a segment from postings that arrive term after term (each term's postings together), as
 * a full load reads them from the term index: written in place, no sort, arrays sized up front.
 */
export class TermRunBuilder {
  private readonly termRows = new Map<string, number>()
  private readonly starts: number[] = []
  private ordinals: Int32Array<ArrayBuffer>
  private tfs: Int32Array<ArrayBuffer>
  private count = 0
  private current: string | undefined

  /** `capacity`: the expected number of postings (grown when short). */
  constructor(capacity: number) {
    this.ordinals = new Int32Array(Math.max(16, capacity))
    this.tfs = new Int32Array(Math.max(16, capacity))
  }

  add(term: string, ordinal: number, tf: number): void {
    if (term !== this.current) {
      if (this.termRows.has(term)) throw new Error(`postings of "${term}" did not come together`)
      this.termRows.set(term, this.starts.length)
      this.starts.push(this.count)
      this.current = term
    }
    const at = this.count++
    this.ordinals = grow(this.ordinals, this.count)
    this.tfs = grow(this.tfs, this.count)
    this.ordinals[at] = ordinal
    this.tfs[at] = tf
  }

  /** The segment, built for `chunkCount` chunks. */
  build(chunkCount: number): Segment {
    const offsets = Int32Array.from([...this.starts, this.count])
    // Trimmed: the capacity counted postings of documents that are not searchable.
    const ordinals = this.ordinals.length === this.count ? this.ordinals : this.ordinals.slice(0, this.count)
    const tfs = this.tfs.length === this.count ? this.tfs : this.tfs.slice(0, this.count)
    const terms = new Map(this.termRows)
    return {
      terms,
      offsets,
      ordinals,
      tfs,
      chunkCount,
      dead: 0,
      bytes: bytesOf(terms, [offsets, ordinals, tfs]),
    }
  }
}
