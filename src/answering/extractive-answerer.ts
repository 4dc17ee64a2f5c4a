import { LruMap } from '../lib/lru.js'
import { pathWords } from '../retrieval/context/context-terms.js'
import type { DocumentSpan } from '../retrieval/context/span.js'
import type { RetrievedChunk } from '../retrieval/types.js'
import { analyze, DEFAULT_LANGUAGE } from '../text/analysis.js'
import { framingLanguage } from '../text/answer-language.js'
import { mentions, type NamedThing } from '../text/names.js'
import { termsAndPairs } from '../text/pairs.js'
import { type Passage, passagesOf } from './extractive/passages.js'
import { OutputGuard } from './output-guard.js'
import { PHRASES } from './phrases.js'
import type { Answer, Answerer, AnswerInput } from './types.js'

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
  maxSentences: 3,
  maxSpread: 8,
  minEvidence: 0.4,
  minPresence: 0.25,
  minCoverage: 0.2,
  minTerms: 2,
  duplicateOverlap: 0.7,
  maxSentenceChars: 500,
}

interface Candidate {
  readonly source: number
  readonly passage: Passage
  readonly score: number
  readonly coverage: number
}

/**
 * How much a passage that has all the question's word pairs (of those some passage has) gains over
 * one that has its words apart: `Total current assets | 19,815` for "total current assets" beats
 * a sentence about "current" assets and "total" costs.
 */
const PHRASE_WEIGHT = 1

/** A term that is a number (`2`, `2005`, `4.5`). */
const NUMBER = /^\d[\d.,]*$/

/** Chunk texts whose passages stay analysed (a few MiB). */
const PASSAGE_CACHE_CHUNKS = 2048

function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let shared = 0
  for (const term of a) if (b.has(term)) shared++
  return shared / Math.min(a.size, b.size)
}

/** The words that say what a chunk's document is: its card (who, what, when) and its file name and folders. */
function contextText(chunk: RetrievedChunk): string {
  const { filename, folders } = pathWords(chunk.objectName)
  const card = chunk.card
  const parts = [filename, folders]
  if (card) parts.push(...card.subjects, card.title ?? '', card.kind ?? '', card.period?.label ?? '')
  return parts.filter(Boolean).join('\n')
}

/**
 * Which sources may answer, by who the question is about (its span): when it names subjects
 * that documents are about, only those documents' chunks (another company's look-alike passage
 * answers nothing). When it names no such subject, a name it gives that no document is about must
 * be, every word of it, in a source's text, and only such sources may answer; a word in capitals
 * (`AMCOR` or `USD`?) counts as such a name only when the knowledge base has none of its words at
 * all (`unseen`), and a quoted passage must name them too (`names`): the chunk of another company
 * that mentions them once answers nothing about them elsewhere. Null when no source may: the answer
 * is "not found".
 */
function eligibleSources(
  sources: readonly RetrievedChunk[],
  span: DocumentSpan | undefined,
  unseen: (term: string) => boolean,
): { sources: Set<number>; names: NamedThing[] } | null {
  let eligible = new Set(sources.map((_, index) => index))
  const names: NamedThing[] = []
  if (!span) return { sources: eligible, names }
  const named = new Set(span.subjects.flatMap((subject) => subject.documents))
  const lookup = (source: RetrievedChunk) => source.chunkId.startsWith('lookup:')
  if (named.size > 0) {
    eligible = new Set(
      [...eligible].filter(
        (index) => named.has(sources[index]?.documentId ?? '') || lookup(sources[index] as RetrievedChunk),
      ),
    )
  }
  for (const name of span.unknownNames) {
    // Beside a subject the documents know, another name is another name of it (`Block (formerly
    // Square)`), a product, or a second subject the knowledge base lacks: its documents still answer.
    if (named.size > 0) break
    // An unknown word in capitals is a name only if the knowledge base never has it (`USD` it has).
    if (!name.certain && !name.terms.every(unseen)) continue
    eligible = new Set(
      [...eligible].filter((index) => {
        const source = sources[index] as RetrievedChunk
        return mentions(source.text, name) || mentions(contextText(source), name)
      }),
    )
    names.push(name)
  }
  return [...eligible].some((index) => !lookup(sources[index] as RetrievedChunk)) ? { sources: eligible, names } : null
}

/**
 * The offline answerer (DESIGN §6): quotes the passages of the retrieved chunks that best answer
 * the question and cites each as `[n]`. Passages are sentences, and table rows under their head
 * (title, unit, header row) so each figure is read with its column and quoted verbatim.
 *
 * The question's terms are weighed only where some source that may answer has them (its own text,
 * a row's head, or its document's context: card and path), by inverse frequency among the
 * passages: a word no source contains cannot tell sources apart, and a name only the card carries
 * weighs as a rare word. The words no source has still count once, all together: when they are
 * most of the question (`minPresence`), the sources are about something else.
 *
 * A source's evidence is the share of that weight found anywhere in it or its context. A passage
 * scores by the share it covers with its head and context (a row by what its own cells add, against
 * the best row under the same head), times its chunk's retrieval score, its source's evidence
 * relative to the best, and how well its document's period fits the one asked for. Who may answer
 * follows the question's span (eligibleSources); about a name no document is about, a passage must
 * also give `minTerms` words of the question besides the name. When no source reaches
 * `minEvidence`, or no passage covers `minCoverage` with `minTerms` question terms of its own, the
 * answer is the localised "not found", citing nothing.
 *
 * A question spanning several documents (a trend over periods, a comparison of subjects) gets one
 * passage per document, in the span's order (oldest first), each introduced by its period or
 * subject; otherwise the best passages, near-duplicates skipped. Framing words are in the requested
 * language (en, fr, de, es, it, pt, nl; English otherwise); quoted text stays as written.
 */
export class ExtractiveAnswerer implements Answerer {
  /**
   * Passages of a chunk text, by language and text: the same chunks come back question after
   * question, and segmenting them is most of an answer's cost. A pure function of its key.
   */
  private readonly passageCache = new LruMap<string, readonly Passage[]>(PASSAGE_CACHE_CHUNKS)
  private readonly termCache = new LruMap<string, readonly string[]>(PASSAGE_CACHE_CHUNKS)

  constructor(private readonly options: ExtractiveOptions = EXTRACTIVE_DEFAULTS) {}

  private passages(chunk: RetrievedChunk, language: string): readonly Passage[] {
    const key = `${language}\u0000${chunk.metadata.category === 'table' ? 't' : 'p'}\u0000${chunk.text}`
    let passages = this.passageCache.get(key)
    if (!passages) {
      passages = passagesOf(chunk, language)
      this.passageCache.set(key, passages)
    }
    return passages
  }

  /** analyze(), cached: a document's context and a chunk's text come back question after question. */
  private termsOf(text: string, language: string): readonly string[] {
    const key = `${language}\u0000${text}`
    let terms = this.termCache.get(key)
    if (!terms) {
      terms = analyze(text, language)
      this.termCache.set(key, terms)
    }
    return terms
  }

  async answer(input: AnswerInput, onToken?: (text: string) => void): Promise<Answer> {
    const phrases = PHRASES[framingLanguage(input.language)]
    // Quoted text is data: a document's images (fetched by whoever renders the answer) are taken
    // out before passages are picked, so no fragment of one can survive a split.
    const guard = new OutputGuard(input.sources.map((source) => source.text).join('\n'))
    const sources = input.sources.map((source) => ({ ...source, text: guard.guard(source.text) }))
    const picked = this.pick({ ...input, sources })
    if (picked.length === 0) {
      onToken?.(phrases.notFound)
      return { text: phrases.notFound, cited: [], notFound: true }
    }
    const spread = picked.length > 1 && new Set(picked.map((c) => sources[c.source]?.documentId)).size > 1
    const cited: number[] = []
    const lines: string[] = []
    let previousHead = ''
    for (const candidate of picked) {
      if (!cited.includes(candidate.source)) cited.push(candidate.source)
      const { passage } = candidate
      const quote = `${clip(passage.text, this.options.maxSentenceChars)} [${candidate.source + 1}]`
      const label = spread && input.span?.spread ? documentLabel(sources[candidate.source] as RetrievedChunk) : ''
      if (passage.head === '') lines.push(`- ${label}${quote}`)
      else if (passage.head === previousHead && label === '') lines.push(`  ${quote}`)
      else lines.push(`- ${label}${passage.head.split('\n').join('\n  ')}\n  ${quote}`)
      previousHead = passage.head
    }
    const pieces = [phrases.intro, ...lines]
    pieces.forEach((piece, index) => {
      onToken?.(index === 0 ? piece : `\n${piece}`)
    })
    return { text: pieces.join('\n'), cited, notFound: false }
  }

  /** The quoted passages, in the order to show them. */
  private pick(input: AnswerInput): Candidate[] {
    const { sources } = input
    if (sources.length === 0) return []
    // Terms must be analysed like the chunks were: in the documents' language, not the answer's.
    const language = sources[0]?.language ?? DEFAULT_LANGUAGE
    const question = termsAndPairs(input.standaloneQuestion, language)
    const questionTerms = [...question.terms]
    if (questionTerms.length === 0) return []
    const wanted = new Set(questionTerms)

    const contexts = sources.map((chunk) => new Set(this.termsOf(contextText(chunk), language)))
    const chunkTerms = sources.map((chunk, index) => {
      const terms = new Set(this.termsOf(chunk.text, language))
      for (const term of contexts[index] ?? []) terms.add(term)
      return terms
    })
    const unseen = new Set(input.query?.terms.filter((_, index) => input.query?.frequencies[index] === 0))
    const who = eligibleSources(sources, input.span, (term) => unseen.has(term))
    if (!who) return []
    const eligible = who.sources

    const passages = sources.map((chunk) => this.passages(chunk, language))
    const all = passages.flat()
    if (all.length === 0) return []
    // A question term counts only where some source that may answer has it.
    const has = (term: string) => [...eligible].some((index) => chunkTerms[index]?.has(term))
    const weight = new Map<string, number>()
    for (const term of questionTerms) {
      if (!has(term)) continue
      const df = all.filter((passage) => passage.terms.has(term) || passage.headTerms.has(term)).length
      weight.set(term, Math.log(1 + (all.length + 1) / (df + 0.5)))
    }
    const total = [...weight.values()].reduce((sum, w) => sum + w, 0)
    if (total === 0 || presence(input, questionTerms, has) < this.options.minPresence) return []
    const share = (...sets: ReadonlySet<string>[]) => {
      let matched = 0
      for (const [term, w] of weight) if (sets.some((set) => set.has(term))) matched += w
      return matched / total
    }

    const evidence = chunkTerms.map((terms, index) => (eligible.has(index) ? share(terms) : 0))
    const bestEvidence = Math.max(...evidence)
    if (bestEvidence < this.options.minEvidence) return []

    // The question's word pairs some passage has too: a passage that has them says it in its words.
    const questionPairs = [...question.pairs].filter((pair) => all.some((passage) => passage.pairs.has(pair)))
    // About someone no document is about, a passage must say more of the question than the name,
    // in words (`2` in `2 year` and in `May 2, 2005` is no match): another company's filing that
    // lists them among its competitors says nothing of their customers.
    const nameTerms = new Set(who.names.flatMap((name) => name.terms))
    const aboutName = (term: string) => nameTerms.has(term) || (who.names.length > 0 && NUMBER.test(term))
    const asked = [...wanted].filter((term) => !aboutName(term))
    // (Of the question's words, not only those some source has: a source that lacks them is no answer.)
    const minTerms = Math.min(this.options.minTerms, who.names.length > 0 ? asked.length : weight.size)
    const fitOfPeriod = periodFit(input.span)
    const candidates: Candidate[] = []
    passages.forEach((list, source) => {
      const support = evidence[source] ?? 0
      if (support < this.options.minEvidence) return
      const context = contexts[source] ?? new Set<string>()
      const retrieval = Math.min(1, Math.max(0, sources[source]?.usageScore ?? 0))
      const documentFit = fitOfPeriod(sources[source]?.documentId ?? '')
      // The rows of a table read with their head: each row's own share against the best row's under that head.
      const bestOwn = new Map<string, number>()
      for (const passage of list) {
        if (passage.head !== '')
          bestOwn.set(passage.head, Math.max(bestOwn.get(passage.head) ?? 0, share(passage.terms)))
      }
      for (const passage of list) {
        if (!who.names.every((name) => mentions(`${passage.head}\n${passage.text}`, name))) continue
        let matched = 0
        for (const term of asked) if (passage.terms.has(term) || passage.headTerms.has(term)) matched++
        if (matched < minTerms) continue
        const coverage = share(passage.terms, passage.headTerms, context)
        if (coverage < this.options.minCoverage) continue
        // Of the rows under one head, the ones whose own cells answer, not every row of the table;
        // a sentence, by what it says itself rather than its document's context.
        const ownShare = share(passage.terms)
        const own =
          passage.head === ''
            ? Math.min(1, ownShare / coverage)
            : ownShare > 0
              ? ownShare / (bestOwn.get(passage.head) ?? ownShare)
              : 0
        const phrased =
          questionPairs.length > 0
            ? questionPairs.filter((pair) => passage.pairs.has(pair)).length / questionPairs.length
            : 0
        const score =
          coverage *
          (0.5 + 0.5 * own) *
          (1 + PHRASE_WEIGHT * phrased) *
          (0.5 + 0.5 * retrieval) *
          documentFit *
          (support / bestEvidence)
        candidates.push({ source, passage, coverage, score })
      }
    })
    candidates.sort((a, b) => b.score - a.score || a.source - b.source)
    if (candidates.length === 0) return []
    return this.spreadOver(candidates, sources, input.span) ?? this.best(candidates)
  }

  /** The best passages, near-duplicates skipped, far weaker ones (under half the best) left out. */
  private best(candidates: readonly Candidate[]): Candidate[] {
    const best = candidates[0]
    if (!best) return []
    const chosen: Candidate[] = []
    for (const candidate of candidates) {
      if (chosen.length === this.options.maxSentences) break
      if (candidate.score < best.score * 0.5) break
      const terms = candidate.passage.terms
      if (chosen.some((kept) => overlap(kept.passage.terms, terms) > this.options.duplicateOverlap)) continue
      chosen.push(candidate)
    }
    return chosen
  }

  /**
   * One passage per document of a span over several documents, in the span's order; undefined when
   * the question spans one document, or fewer than two of its documents have a passage to quote.
   */
  private spreadOver(
    candidates: readonly Candidate[],
    sources: readonly RetrievedChunk[],
    span: DocumentSpan | undefined,
  ): Candidate[] | undefined {
    if (!span?.spread) return undefined
    const chosen: Candidate[] = []
    for (const documentId of span.documents) {
      const best = candidates.find((candidate) => sources[candidate.source]?.documentId === documentId)
      if (best) chosen.push(best)
      if (chosen.length === this.options.maxSpread) break
    }
    return chosen.length >= 2 ? chosen : undefined
  }
}

/**
 * How much of the question the sources hold at all: the share of its terms' weight in the whole
 * knowledge base (retrieval's idf: the words of an instruction every filing uses weigh little)
 * found in some source; words no chunk of the knowledge base has are left out. Without retrieval's
 * weights, every term weighs the same.
 */
function presence(input: AnswerInput, questionTerms: readonly string[], has: (term: string) => boolean): number {
  const query = input.query
  let found = 0
  let total = 0
  if (query && query.weights.length === query.terms.length && query.terms.length > 0) {
    query.terms.forEach((term, index) => {
      const weight = query.weights[index] ?? 0
      // A word no chunk of the knowledge base has (an instruction's, `fy2023` written as `fiscal
      // 2023`) can be in no source: it says nothing of these sources in particular.
      if (query.frequencies[index] === 0) return
      total += weight
      if (has(term)) found += weight
    })
  } else {
    for (const term of questionTerms) {
      total += 1
      if (has(term)) found += 1
    }
  }
  return total > 0 ? found / total : 0
}

/**
 * How well a document's period fits the period a question names (1 for a perfect fit, half for a
 * document of another period): the annual report of `FY2021` is quoted before the next year's,
 * which repeats its figures as comparatives. Every document fits alike when the question names no
 * period, or spans several.
 */
function periodFit(span: DocumentSpan | undefined): (documentId: string) => number {
  if (!span || span.spread || span.periodScores.size === 0) return () => 1
  return (documentId) => 0.5 + 0.5 * Math.min(1, span.periodScores.get(documentId) ?? 0)
}

/** What tells a quoted document apart in a trend or a comparison: its subject and period, as its card says. */
function documentLabel(chunk: RetrievedChunk): string {
  const card = chunk.card
  const parts = [card?.subjects[0], card?.period?.label].filter((part): part is string => !!part)
  return parts.length > 0 ? `${parts.join(', ')}: ` : ''
}
