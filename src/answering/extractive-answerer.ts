import { LruMap } from '../lib/lru.js'
import type { RetrievedChunk } from '../retrieval/types.js'
import { analyze, DEFAULT_LANGUAGE } from '../text/analysis.js'
import { framingLanguage } from '../text/answer-language.js'
import { mentions } from '../text/names.js'
import { termsAndPairs } from '../text/pairs.js'
import { periodWords } from '../text/periods/period-words.js'
import type { Candidate } from './extractive/candidate.js'
import { bestCandidates, spreadCandidates, withFigureSources } from './extractive/choose.js'
import { contextText } from './extractive/context-text.js'
import { eligibleSources } from './extractive/eligible-sources.js'
import { EXTRACTIVE_DEFAULTS, type ExtractiveOptions } from './extractive/options.js'
import { type Passage, passagesOf } from './extractive/passages.js'
import { periodFit } from './extractive/period-fit.js'
import { presence } from './extractive/presence.js'
import { quoteLines } from './extractive/quote-lines.js'
import { termWeights } from './extractive/term-weights.js'
import { OutputGuard } from './output-guard.js'
import { PHRASES } from './phrases.js'
import type { Answer, Answerer, AnswerInput } from './types.js'

/**
 * How much a passage that has all the question's word pairs (of those some passage has) gains over
 * one that has its words apart: `Total current assets | 19,815` for "total current assets" beats
 * a sentence about "current" assets and "total" costs.
 */
const PHRASE_WEIGHT = 1

/**
 * A question's word is rare in the knowledge base when at most about one chunk in this many has it
 * (its BM25 idf is at least the log of it): a company's name in capitals (`MGM`) that another
 * company's filing mentions once or twice, not an abbreviation of the trade (`USD`, `GAAP`,
 * `EBITDA`, in dozens of chunks of sixty filings).
 */
const RARE_ONE_IN = 2000

/** A term that is a number (`2`, `2005`, `4.5`). */
const NUMBER = /^\d[\d.,]*$/

/** Chunk texts whose passages stay analysed (a few MiB). */
const PASSAGE_CACHE_CHUNKS = 2048

/**
 * The offline answerer (DESIGN §6): quotes the passages of the retrieved chunks that best answer
 * the question and cites each as `[n]`. Passages are sentences, and table rows under their head
 * (title, unit, header row) so each figure is read with its column and quoted verbatim.
 *
 * The question's terms are weighed only where some source that may answer has them (its own text,
 * a row's head, or its document's context: card and path), by their idf in the knowledge base
 * (termWeights): a word no source contains cannot tell sources apart, a name only the card carries
 * weighs as the rare word it is, and an instruction's words weigh as little as they do in every
 * filing. The words that only write the question's period are left to the span (periodWords). The
 * words no source has still count once, all together: when they are most of the question
 * (`minPresence`), the sources are about something else.
 *
 * A source's evidence is the share of that weight found anywhere in it or its context. A passage
 * scores by the share it covers with its head and context (a row by what its own cells add, against
 * the best row under the same head; its own words are those its document's context does not give,
 * so a row labelled with the company's name says nothing of a question on it), times its chunk's
 * retrieval score, its source's evidence relative to the best, and how well its document's period
 * fits the one asked for. Who may answer follows the question's span (eligibleSources); about a
 * name no document is about, a passage must also give `minTerms` words of the question besides the
 * name. When no source reaches `minEvidence`, or no passage covers `minCoverage` with `minTerms`
 * question terms of its own (a subject the question names counts for its own documents), the
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
    const labelled = spread && Boolean(input.span?.spread)
    const { lines, cited } = quoteLines(picked, sources, labelled, this.options.maxSentenceChars)
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
    const searched = input.searchText ?? input.standaloneQuestion
    const question = termsAndPairs(searched, language)
    const notation = periodWords(searched, language)
    const questionTerms = [...question.terms].filter((term) => !notation.has(term))
    if (questionTerms.length === 0) return []
    const wanted = new Set(questionTerms)

    const contexts = sources.map((chunk) => new Set(this.termsOf(contextText(chunk), language)))
    const chunkTerms = sources.map((chunk, index) => {
      const terms = new Set(this.termsOf(chunk.text, language))
      for (const term of contexts[index] ?? []) terms.add(term)
      return terms
    })
    const rare = new Set(
      input.query?.terms.filter(
        (_, index) =>
          input.query?.frequencies[index] === 0 || (input.query?.weights[index] ?? 0) >= Math.log(RARE_ONE_IN),
      ),
    )
    const who = eligibleSources(sources, input.span, (term) => rare.has(term))
    if (!who) return []
    const eligible = who.sources

    const passages = sources.map((chunk) => this.passages(chunk, language))
    const all = passages.flat()
    if (all.length === 0) return []
    // A question term counts only where some source that may answer has it.
    const has = (term: string) => [...eligible].some((index) => chunkTerms[index]?.has(term))
    const weight = termWeights(questionTerms, input.query, has, (term) => {
      const df = all.filter((passage) => passage.terms.has(term) || passage.headTerms.has(term)).length
      return Math.log(1 + (all.length + 1) / (df + 0.5))
    })
    const total = [...weight.values()].reduce((sum, w) => sum + w, 0)
    if (total === 0 || presence(input, questionTerms, has) < this.options.minPresence) return []
    const share = (...sets: ReadonlySet<string>[]) => {
      let matched = 0
      for (const [term, w] of weight) if (sets.some((set) => set.has(term))) matched += w
      return matched / total
    }
    // What a passage says itself: the question's words its document's context (card, path) does not
    // already give. A row labelled with the company's name (`Best Buy | 127 stores`) or a heading
    // line that is the name says nothing about a question on that company.
    const ownShareOf = (terms: ReadonlySet<string>, context: ReadonlySet<string>) => {
      let matched = 0
      for (const [term, w] of weight) if (terms.has(term) && !context.has(term)) matched += w
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
    // The name of a subject the question names, which its documents' cards hold: said by every
    // passage of those documents (`What was Globex's revenue?` is answered by `Revenue | 9,583`).
    const subjectTerms = new Set(input.span?.subjects.flatMap((subject) => subject.name.terms) ?? [])
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
          bestOwn.set(passage.head, Math.max(bestOwn.get(passage.head) ?? 0, ownShareOf(passage.terms, context)))
      }
      for (const passage of list) {
        if (!who.names.every((name) => mentions(`${passage.head}\n${passage.text}`, name))) continue
        let matched = 0
        for (const term of asked) {
          if (passage.terms.has(term) || passage.headTerms.has(term) || (subjectTerms.has(term) && context.has(term)))
            matched++
        }
        if (matched < minTerms) continue
        // Besides its document's own name (the context gives that), a passage must say something
        // the question asks, itself or in its head: `BEST BUY CO., INC.` says nothing of revenue.
        const ownShare = ownShareOf(passage.terms, context)
        const beyondName = asked.filter((term) => !context.has(term))
        if (beyondName.length > 0 && ownShare === 0 && !beyondName.some((term) => passage.headTerms.has(term))) continue
        const coverage = share(passage.terms, passage.headTerms, context)
        if (coverage < this.options.minCoverage) continue
        // Of the rows under one head, the ones whose own cells answer, not every row of the table;
        // a sentence, by what it says itself rather than its document's context.
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
    const chosen =
      spreadCandidates(candidates, sources, input.span, this.options.maxSpread) ??
      bestCandidates(candidates, this.options)
    return withFigureSources(chosen, sources, passages)
  }
}
