/** Tuning of the extractive answerer. */
export interface ExtractiveOptions {
  /** Most passages quoted in one answer about one document or one subject. */
  readonly maxSentences: number
  /** Most documents quoted (one passage each) when the question spans several: a trend, a comparison. */
  readonly maxSpread: number
  /**
   * Least share of the question's term weight one source (a chunk: all its passages, its heading
   * and its document's context together) must contain for anything to be quoted; below it the
   * answer is "not found".
   */
  readonly minEvidence: number
  /**
   * Least share of the whole question (weighed by its terms' idf in the knowledge base, the terms no
   * source has counting too) that the sources hold together: below it they share only a word or two.
   */
  readonly minPresence: number
  /** Least share of the question's term weight a quoted passage (with its context) must contain. */
  readonly minCoverage: number
  /** Least distinct question terms a quoted passage must itself contain (with a row's head). */
  readonly minTerms: number
  /** Passages sharing more than this share of their terms with a quoted one are near-duplicates. */
  readonly duplicateOverlap: number
  /** Longest quoted passage, in characters (longer ones are cut at a word boundary). */
  readonly maxSentenceChars: number
}

export const EXTRACTIVE_DEFAULTS: ExtractiveOptions = {
  maxSentences: 5,
  maxSpread: 8,
  minEvidence: 0.4,
  minPresence: 0.25,
  minCoverage: 0.2,
  minTerms: 2,
  duplicateOverlap: 0.7,
  maxSentenceChars: 500,
}
