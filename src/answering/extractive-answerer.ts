import { LruMap } from '../lib/lru.js'
import type { RetrievedChunk } from '../retrieval/types.js'
import { analyze, analyzeTokens, detectLanguage } from '../text/analysis.js'
import { framingLanguage } from '../text/answer-language.js'
import { sentenceSegments } from '../text/segments.js'
import { OutputGuard } from './output-guard.js'
import { PHRASES } from './phrases.js'
import type { Answer, Answerer, AnswerInput } from './types.js'

/** Tuning of the extractive answerer. */
export interface ExtractiveOptions {
  /** Most sentences quoted in one answer. */
  readonly maxSentences: number
  /**
   * Least share of the question's term weight one source (a chunk: all its sentences together)
   * must contain for anything to be quoted; below it the answer is "not found".
   */
  readonly minEvidence: number
  /** Least share of the question's term weight a quoted sentence must contain. */
  readonly minCoverage: number
  /** Least distinct question terms a quoted sentence must contain (all of them for shorter questions). */
  readonly minTerms: number
  /** Sentences sharing more than this share of their terms with a quoted one are near-duplicates. */
  readonly duplicateOverlap: number
  /** Longest quoted sentence, in characters (longer ones are cut at a word boundary). */
  readonly maxSentenceChars: number
}

export const EXTRACTIVE_DEFAULTS: ExtractiveOptions = {
  maxSentences: 3,
  minEvidence: 0.4,
  minCoverage: 0.2,
  minTerms: 2,
  duplicateOverlap: 0.7,
  maxSentenceChars: 500,
}

interface Candidate {
  readonly source: number
  readonly text: string
  readonly terms: ReadonlySet<string>
  score: number
  coverage: number
  matched: number
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' })
/** Chunk texts whose sentences stay analysed (a few MiB). */
const SENTENCE_CACHE_CHUNKS = 2048
/** Citation markers inside document text would be mistaken for ours. */
const CITATION = /\[\d+\]/g

/** Sentences of a chunk: lines split into sentences; the heading trail chunks start with is context, not an answer. */
function sentencesOf(chunk: RetrievedChunk): string[] {
  const lines = chunk.text.split(/\n+/)
  if (lines.length > 1 && lines[0]?.includes(' > ')) lines.shift()
  const sentences: string[] = []
  for (const line of lines) {
    for (const { segment } of sentenceSegments(sentenceSegmenter, line)) {
      const sentence = segment.replace(CITATION, '').replace(/\s+/g, ' ').trim()
      if (sentence !== '') sentences.push(sentence)
    }
  }
  return sentences
}

/** A file name as words: extension dropped, separators as spaces. */
function documentTitle(filename: string): string {
  return filename.replace(/\.[A-Za-z0-9]{1,5}$/, '').replace(/[_\-.+]+/g, ' ')
}

function clip(sentence: string, max: number): string {
  if (sentence.length <= max) return sentence
  const cut = sentence.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let shared = 0
  for (const term of a) if (b.has(term)) shared++
  return shared / Math.min(a.size, b.size)
}

/**
 * The offline answerer (DESIGN §6): quotes the sentences of the retrieved chunks that best answer
 * the question and cites each as `[n]`. A sentence scores by the share of the question's term
 * weight it contains, terms weighted by inverse frequency among the candidate sentences (rare
 * question terms count more), multiplied by its chunk's retrieval score so better-ranked chunks win
 * ties, and by its chunk's evidence relative to the best chunk's. A chunk's evidence is the share of
 * the question's weight found anywhere in it or in its document's name and description; when no
 * chunk reaches `minEvidence`, or no sentence of such a chunk covers `minCoverage` with `minTerms`
 * question terms, the answer is the localised "not found in the knowledge base", citing nothing.
 * Near-duplicates of an already quoted sentence are skipped. Framing words are in the requested language (en, fr, de, es, it, pt, nl; English
 * otherwise); quoted text stays as the documents wrote it.
 */
export class ExtractiveAnswerer implements Answerer {
  /**
   * Sentences of a chunk text and the terms of each, by language and text: the same chunks come
   * back question after question, and segmenting them (Intl.Segmenter) is most of an answer's
   * cost. A pure function of its key, so cached results are exactly the computed ones.
   */
  private readonly sentenceCache = new LruMap<string, ReadonlyArray<{ text: string; terms: ReadonlySet<string> }>>(
    SENTENCE_CACHE_CHUNKS,
  )
  private readonly termCache = new LruMap<string, readonly string[]>(SENTENCE_CACHE_CHUNKS)
  /** Language of the first sources' text, by that text (same reason). */
  private readonly languageCache = new LruMap<string, string>(SENTENCE_CACHE_CHUNKS)

  constructor(private readonly options: ExtractiveOptions = EXTRACTIVE_DEFAULTS) {}

  private sentencesWithTerms(
    chunk: RetrievedChunk,
    language: string,
  ): ReadonlyArray<{ text: string; terms: ReadonlySet<string> }> {
    const key = `${language}\u0000${chunk.text}`
    let sentences = this.sentenceCache.get(key)
    if (!sentences) {
      sentences = sentencesOf(chunk).map((text) => ({ text, terms: new Set(analyze(text, language)) }))
      this.sentenceCache.set(key, sentences)
    }
    return sentences
  }

  /** analyze(), cached: a document's name and description come back with each of its chunks. */
  private termsOf(text: string, language: string): readonly string[] {
    const key = `${language}\u0000${text}`
    let terms = this.termCache.get(key)
    if (!terms) {
      terms = analyze(text, language)
      this.termCache.set(key, terms)
    }
    return terms
  }

  private languageOf(text: string): string {
    let language = this.languageCache.get(text)
    if (language === undefined) {
      language = detectLanguage(text)
      this.languageCache.set(text, language)
    }
    return language
  }

  async answer(input: AnswerInput, onToken?: (text: string) => void): Promise<Answer> {
    const phrases = PHRASES[framingLanguage(input.language)]
    // Quoted text is data: a document's images (fetched by whoever renders the answer) are taken
    // out before sentences are picked, so no fragment of one can survive a sentence split.
    const guard = new OutputGuard(input.sources.map((source) => source.text).join('\n'))
    const picked = this.pick({
      ...input,
      sources: input.sources.map((source) => ({ ...source, text: guard.guard(source.text) })),
    })
    if (picked.length === 0) {
      onToken?.(phrases.notFound)
      return { text: phrases.notFound, cited: [], notFound: true }
    }
    const cited: number[] = []
    const lines: string[] = []
    for (const candidate of picked) {
      if (!cited.includes(candidate.source)) cited.push(candidate.source)
      lines.push(`- ${clip(candidate.text, this.options.maxSentenceChars)} [${candidate.source + 1}]`)
    }
    const pieces = [phrases.intro, ...lines]
    pieces.forEach((piece, index) => {
      onToken?.(index === 0 ? piece : `\n${piece}`)
    })
    return { text: pieces.join('\n'), cited, notFound: false }
  }

  /** The quoted sentences, best first. */
  private pick(input: AnswerInput): Candidate[] {
    // Terms must be analysed like the chunks were: in the documents' language, not the answer's.
    const language = this.languageOf(
      input.sources
        .slice(0, 3)
        .map((chunk) => chunk.text)
        .join('\n'),
    )
    const questionTerms = [...new Set(analyzeTokens(input.standaloneQuestion, language).map((token) => token.term))]
    if (questionTerms.length === 0 || input.sources.length === 0) return []
    const wanted = new Set(questionTerms)

    const candidates: Candidate[] = []
    input.sources.forEach((chunk, source) => {
      for (const { text, terms } of this.sentencesWithTerms(chunk, language)) {
        if (terms.size < 3) continue
        candidates.push({ source, text, terms, score: 0, coverage: 0, matched: 0 })
      }
    })
    if (candidates.length === 0) return []

    const weight = new Map<string, number>()
    for (const term of questionTerms) {
      const df = candidates.filter((candidate) => candidate.terms.has(term)).length
      weight.set(term, Math.log(1 + (candidates.length + 1) / (df + 0.5)))
    }
    const total = [...weight.values()].reduce((sum, w) => sum + w, 0)
    const share = (terms: Iterable<string>) => {
      let matched = 0
      for (const term of terms) if (wanted.has(term)) matched += weight.get(term) ?? 0
      return matched / total
    }

    // Evidence of each source: the question's weight found anywhere in it. An answer is often spread
    // over a chunk (a heading names the company and year, a table row holds the figure), and long
    // questions carry instructions no document repeats, so no single sentence covers much of them.
    // The document's name and description say what the chunk is about ("3M_2018_10K.pdf").
    const sourceTerms = input.sources.map(
      (chunk) => new Set(this.termsOf(`${documentTitle(chunk.filename)}\n${chunk.description}`, language)),
    )
    for (const candidate of candidates) for (const term of candidate.terms) sourceTerms[candidate.source]?.add(term)
    const evidence = sourceTerms.map((terms) => share(terms))
    const bestEvidence = Math.max(...evidence)
    if (bestEvidence < this.options.minEvidence) return []

    const minTerms = Math.min(this.options.minTerms, questionTerms.length)
    for (const candidate of candidates) {
      candidate.coverage = share(candidate.terms)
      for (const term of candidate.terms) if (wanted.has(term)) candidate.matched++
      const retrieval = input.sources[candidate.source]?.usageScore ?? 0
      const support = (evidence[candidate.source] ?? 0) / bestEvidence
      candidate.score = candidate.coverage * (0.5 + 0.5 * Math.min(1, Math.max(0, retrieval))) * support
    }

    const ranked = candidates
      .filter(
        (candidate) =>
          candidate.coverage >= this.options.minCoverage &&
          candidate.matched >= minTerms &&
          (evidence[candidate.source] ?? 0) >= this.options.minEvidence,
      )
      .sort((a, b) => b.score - a.score || a.source - b.source)
    const best = ranked[0]
    if (!best) return []
    const chosen: Candidate[] = []
    for (const candidate of ranked) {
      if (chosen.length === this.options.maxSentences) break
      // Far weaker sentences dilute a good answer.
      if (candidate.score < best.score * 0.5) break
      if (chosen.some((kept) => overlap(kept.terms, candidate.terms) > this.options.duplicateOverlap)) continue
      chosen.push(candidate)
    }
    return chosen
  }
}
