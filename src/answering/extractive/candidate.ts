import type { Passage } from './passages.js'

/** A passage that may be quoted: its source (index in the answer's sources), and how well it answers. */
export interface Candidate {
  readonly source: number
  readonly passage: Passage
  readonly score: number
  readonly coverage: number
  /**
   * Other sources that write the same passage (a figure of a report's summary table repeated in
   * its financial statements): cited beside it, so the reader sees every page that states it.
   */
  readonly alsoIn?: readonly number[]
}
