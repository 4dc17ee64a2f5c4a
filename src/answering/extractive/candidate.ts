import type { Passage } from './passages.js'

/** A passage that may be quoted: its source (index in the answer's sources), and how well it answers. */
export interface Candidate {
  readonly source: number
  readonly passage: Passage
  readonly score: number
  readonly coverage: number
}
