import {
  AND_WORDS,
  BETWEEN_WORDS,
  CLOSEST_LINKS,
  CLOSEST_WORDS,
  COMPARATOR_GAP_WORDS,
  COMPARATORS,
  type Comparison,
  DATE_AFTER_WORDS,
  DATE_ARTICLES,
  DATE_BEFORE_WORDS,
  DATE_RANGE_JOINERS,
  DATE_RANGE_OPENERS,
  DATE_SINCE_WORDS,
  DATE_UNTIL_WORDS,
  NEGATIVE_WORDS,
  ORDINAL_RANGE_JOINERS,
  POSITIVE_WORDS,
} from './lexicon/comparisons.js'
import {
  AGGREGATE_PHRASES,
  AGGREGATE_WORDS_BEFORE_COUNT,
  COUNT_PHRASES,
  DIFFERENCE_PHRASES,
  DISTINCT_WORDS,
  NON_EMPTY_PHRASES,
  SHARE_PHRASES,
  UNSUPPORTED_WORDS,
} from './lexicon/computations.js'
import { LIMIT_BEFORE, LIMIT_NOUN_BEFORE, ONE_WORDS, POSITION_WORDS, ROW_WORDS } from './lexicon/limits.js'
import {
  ALL_WORDS,
  ANY_WORDS,
  BOOLEAN_OPENERS,
  EXISTENCE_PHRASES,
  LIST_OPENERS,
  NO_ONE_PHRASES,
  YES_NO_PREFIXES,
} from './lexicon/question-forms.js'
import {
  COMPARATOR_HEADS,
  DIMENSION_ADJECTIVES,
  type Direction,
  FRENCH_ADJECTIVES,
  FRENCH_SUPERLATIVE_ARTICLES,
  FRENCH_SUPERLATIVE_HEADS,
  MODE_NOUNS,
  MODE_WORDS,
  SUPERLATIVES,
} from './lexicon/superlatives.js'
import { ordinalValue, quotedStrings, type Token, tokenise, words } from './tokenise.js'

/**
 * The question's cues, independent of any table: its form (yes/no, list, count), aggregate words,
 * superlatives, comparators with their numbers, and how many items it asks for.
 */

export interface Comparator {
  readonly op: Comparison
  readonly value: number
  readonly percent: boolean
  /** First token of the comparator phrase, and the token of the number (or of "negative"). */
  readonly start: number
  readonly numberIndex: number
  /** "older than", "cheaper than": the dimension the comparator names. */
  readonly hints: readonly string[]
}

export interface Superlative {
  readonly index: number
  readonly direction: Direction
  /** "most common", "least frequent": frequency, not a column's value. */
  readonly mode: boolean
  /** "oldest", "cheapest": the dimension the word names. */
  readonly hints: readonly string[]
}

export interface Cues {
  readonly tokens: readonly Token[]
  readonly boolean: boolean
  readonly list: boolean
  /** Index of the count phrase ("how many", "combien"), or -1. */
  readonly count: number
  readonly aggregates: ReadonlyArray<{
    readonly fn: 'avg' | 'sum' | 'median' | 'std' | 'range'
    readonly index: number
  }>
  readonly distinct: boolean
  readonly all: boolean
  readonly any: boolean
  readonly superlatives: readonly Superlative[]
  readonly comparators: readonly Comparator[]
  readonly between: ReadonlyArray<{
    readonly low: number
    readonly high: number
    readonly start: number
    readonly end: number
  }>
  /** "closest to 80". */
  readonly closest: { readonly value: number; readonly index: number } | null
  /** How many items are asked for ("top 5", "the three players"), or null. */
  readonly limit: number | null
  /** "first 5 rows" (asc) / "last five books" (desc): file order. */
  readonly position: Direction | null
  /** Token indexes the cues above consumed (never part of a column or value). */
  readonly used: ReadonlySet<number>
  /** Numbers no cue explains (a year, a code): the planner declines rather than ignore them. */
  readonly strayNumbers: ReadonlyArray<{ readonly value: number; readonly index: number }>
  readonly unsupported: string | null
  readonly nonEmpty: boolean
  readonly negated: boolean
  /** ISO dates with their comparison ("after 2024-01-31", "between … and …"). */
  readonly dates: ReadonlyArray<{
    readonly op: Comparison | 'between'
    readonly value: string
    readonly high?: string
    readonly index: number
  }>
  /** "what percentage of", "quelle part de": a share of the rows. */
  readonly share: boolean
  /** Rows to skip before the extreme one ("second-highest" → 1). */
  readonly offset: number
  readonly quoted: ReadonlyArray<{ readonly text: string; readonly start: number; readonly end: number }>
}

function phraseAt(tokens: readonly Token[], index: number, phrase: readonly string[]): boolean {
  return phrase.every((word, offset) => tokens[index + offset]?.text === word)
}

function findPhrase(tokens: readonly Token[], phrases: readonly string[], from = 0, to = tokens.length): number {
  for (let i = from; i < to; i++) {
    for (const phrase of phrases) if (phraseAt(tokens, i, phrase.split(' '))) return i
  }
  return -1
}

/** Symbols and shorthands spelled out: `>=` → "at least", `2k` → 2000. */
function prepare(question: string): string {
  return (
    question
      // presentation instructions, not conditions: "rounded to two decimal places", "@mean_fare[value]"
      .replace(
        /\b(?:round(?:ed|ing)?|arrondi[es]*)\b[^.;\n]*?\b(?:decimals?|decimal places?|decimal points?|digits?|d[ée]cimales?)\b/gi,
        ' ',
      )
      .replace(/@\w+\[[^\]]*\]/g, ' ')
      .replace(/>=/g, ' at least ')
      .replace(/<=/g, ' at most ')
      .replace(/</g, ' less than ')
      .replace(/>/g, ' greater than ')
      .replace(/(^|\s)=/g, ' equal to ')
      .replace(/\b(\d+(?:\.\d+)?)k\b/gi, (_, n: string) => String(Number(n) * 1000))
      .replace(/\b(\d+(?:\.\d+)?)\s?(?:million|millions)\b/gi, (_, n: string) => String(Number(n) * 1_000_000))
  )
}

/** Where each quoted string of the question sits among its tokens. */
function locateQuotes(question: string, tokens: readonly Token[]): Array<{ text: string; start: number; end: number }> {
  const found: Array<{ text: string; start: number; end: number }> = []
  for (const quoted of quotedStrings(question)) {
    const phrase = words(quoted)
    if (phrase.length === 0) continue
    for (let i = 0; i < tokens.length; i++) {
      if (phraseAt(tokens, i, phrase)) {
        found.push({ text: quoted, start: i, end: i + phrase.length - 1 })
        break
      }
    }
  }
  return found
}

const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g

export function readCues(question: string): Cues {
  // ISO dates become placeholder words (`date0`) so that their digits are not read as numbers
  const dateValues: string[] = []
  const withDates = question.replace(ISO_DATE, (match) => ` date${dateValues.push(match) - 1} `)
  const tokens = tokenise(prepare(withDates))
  const quoted = locateQuotes(prepare(withDates), tokens)
  const quotedSpans = new Set<number>()
  for (const quote of quoted) for (let i = quote.start; i <= quote.end; i++) quotedSpans.add(i)
  const text = ` ${tokens.map((token) => token.text).join(' ')} `
  const unsupported = UNSUPPORTED_WORDS.find((phrase) => text.includes(` ${words(phrase).join(' ')} `)) ?? null
  const used = new Set<number>()
  const first = tokens[0]?.text ?? ''
  const second = tokens[1]?.text ?? ''
  let boolean = BOOLEAN_OPENERS.has(first) && !(first === 'a' || (first === 'y' && second !== 'a'))
  if (!boolean && (first === 'if' || first === 'si')) {
    const comma = question.indexOf(',')
    const after = comma >= 0 ? words(question.slice(comma + 1))[0] : undefined
    if (after && BOOLEAN_OPENERS.has(after)) boolean = true
  }
  if (!boolean && findPhrase(tokens, YES_NO_PREFIXES, 0, 2) >= 0) boolean = true
  if (!boolean && /\b\p{L}+-(?:t-)?(?:il|elle|ils|elles|on)\b/iu.test(question) && question.includes('?'))
    boolean = true
  if (!boolean && /\btrue or false\b|\bvrai ou faux\b|\byes or no\b|\boui ou non\b/i.test(question)) boolean = true
  if (!boolean && question.includes('?')) {
    const clauses = question.split(',').slice(1)
    if (clauses.some((clause) => BOOLEAN_OPENERS.has(words(clause)[0] ?? '') && (words(clause)[0] ?? '') !== 'a'))
      boolean = true
  }
  const listAt = findPhrase(tokens, LIST_OPENERS, 0, 3)
  const list = !boolean && listAt >= 0

  let count = findPhrase(tokens, COUNT_PHRASES)
  const beforeCount = tokens[count - 1]?.text ?? ''
  if (count > 0 && (SUPERLATIVES[beforeCount] !== undefined || AGGREGATE_WORDS_BEFORE_COUNT.has(beforeCount))) {
    count = -1
  }
  // "Combien de villes y a-t-il ?" asks for a number, not yes or no
  if (count >= 0 && count <= 1) boolean = false
  if (count >= 0) {
    const phrase = COUNT_PHRASES.find((p) => phraseAt(tokens, count, p.split(' '))) ?? ''
    for (let i = 0; i < phrase.split(' ').length; i++) used.add(count + i)
  }

  const aggregates: Array<{ fn: 'avg' | 'sum' | 'median' | 'std' | 'range'; index: number }> = []
  for (const [fn, phrases] of Object.entries(AGGREGATE_PHRASES) as Array<
    [Cues['aggregates'][number]['fn'], string[]]
  >) {
    for (let i = 0; i < tokens.length; i++) {
      const phrase = phrases.find((p) => phraseAt(tokens, i, p.split(' ')))
      if (!phrase) continue
      // "total number of" is a count
      if (fn === 'sum' && tokens[i + 1]?.text === 'number') continue
      if (quotedSpans.has(i)) continue
      aggregates.push({ fn, index: i })
    }
  }
  const difference = findPhrase(tokens, DIFFERENCE_PHRASES)

  const superlatives: Superlative[] = []
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i]?.text ?? ''
    const next = tokens[i + 1]?.text ?? ''
    if (quotedSpans.has(i) || COMPARATOR_HEADS.has(tokens[i - 1]?.text ?? '')) continue
    if ((word === 'less' || word === 'more') && next === 'likely') {
      superlatives.push({ index: i, direction: word === 'more' ? 'desc' : 'asc', mode: false, hints: [] })
      used.add(i)
      used.add(i + 1)
      i++
      continue
    }
    const dimension = DIMENSION_ADJECTIVES[word]
    const direction = SUPERLATIVES[word]
    if ((word === 'most' || word === 'least') && MODE_WORDS.has(next)) {
      superlatives.push({ index: i, direction: word === 'most' ? 'desc' : 'asc', mode: true, hints: [] })
      used.add(i)
      used.add(i + 1)
      i++
      continue
    }
    const head = FRENCH_SUPERLATIVE_HEADS[word]
    if (head && FRENCH_SUPERLATIVE_ARTICLES.has(tokens[i - 1]?.text ?? '')) {
      const adjective = FRENCH_ADJECTIVES[next]
      if (MODE_WORDS.has(next)) {
        superlatives.push({ index: i, direction: head, mode: true, hints: [] })
        used.add(i)
        used.add(i + 1)
        i++
        continue
      }
      if (adjective) {
        const flipped: Direction = adjective === 'asc' ? (head === 'desc' ? 'asc' : 'desc') : head
        superlatives.push({ index: i, direction: flipped, mode: false, hints: DIMENSION_ADJECTIVES[next]?.words ?? [] })
        used.add(i)
        used.add(i + 1)
        i++
        continue
      }
      // "le plus de points": the most of a measure
      if (next === 'de' || next === 'd') {
        superlatives.push({ index: i, direction: head, mode: false, hints: [] })
        used.add(i)
        used.add(i + 1)
        i++
        continue
      }
    }
    if (word === 'mode' || (MODE_NOUNS.includes(word) && !direction)) {
      superlatives.push({ index: i, direction: 'desc', mode: true, hints: [] })
      used.add(i)
      continue
    }
    if (direction && !(word === 'most' && /^\d/.test(next)) && tokens[i + 1]?.text !== 'than') {
      // "most expensive" → the dimension adjective carries the meaning
      const nextDimension = DIMENSION_ADJECTIVES[next]
      const hints = dimension?.words ?? (word === 'most' || word === 'least' ? (nextDimension?.words ?? []) : [])
      const dir = word === 'least' && nextDimension ? (nextDimension.direction === 'desc' ? 'asc' : 'desc') : direction
      superlatives.push({ index: i, direction: dir, mode: false, hints })
      used.add(i)
      if ((word === 'most' || word === 'least') && nextDimension) {
        used.add(i + 1)
        i++
      }
      continue
    }
    if (dimension && !next.startsWith('than') && word.endsWith('est')) {
      superlatives.push({ index: i, direction: dimension.direction, mode: false, hints: dimension.words })
      used.add(i)
    }
  }
  if (
    difference >= 0 &&
    superlatives.some((s) => s.direction === 'desc') &&
    superlatives.some((s) => s.direction === 'asc')
  ) {
    aggregates.push({ fn: 'range', index: difference })
    superlatives.length = 0
  }
  if (aggregates.some((a) => a.fn === 'range')) superlatives.length = 0
  // "second-highest", "3rd largest": skip that many
  let offset = 0
  for (const superlative of superlatives) {
    const ordinal = ordinalValue(tokens[superlative.index - 1]?.text ?? '')
    if (ordinal !== null && ordinal > 1) {
      offset = ordinal - 1
      used.add(superlative.index - 1)
    }
  }
  for (let i = 0; i < tokens.length; i++) if (DISTINCT_WORDS.has(tokens[i]?.text ?? '')) used.add(i)

  const comparators: Comparator[] = []
  const between: Array<{ low: number; high: number; start: number; end: number }> = []
  let closest: Cues['closest'] = null
  let limit: number | null = null
  let position: Direction | null = null
  const strayNumbers: Array<{ value: number; index: number }> = []
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    if (!token) continue
    if (NEGATIVE_WORDS.has(token.text)) {
      comparators.push({ op: '<', value: 0, percent: false, start: i, numberIndex: i, hints: [] })
      used.add(i)
      continue
    }
    if (POSITIVE_WORDS.has(token.text)) {
      comparators.push({ op: '>', value: 0, percent: false, start: i, numberIndex: i, hints: [] })
      used.add(i)
      continue
    }
    const positionWord = POSITION_WORDS[token.text]
    if (positionWord && !superlatives.some((s) => s.index === i)) {
      const after = tokens[i + 1]
      const afterNumber = after?.number ?? null
      if (afterNumber !== null && Number.isInteger(afterNumber) && afterNumber > 0) {
        position = positionWord
        limit = afterNumber
        used.add(i)
        used.add(i + 1)
        i++
        continue
      }
      const before = tokens[i - 1]?.number ?? null
      if (before !== null || ROW_WORDS.has(after?.text ?? '')) {
        position = positionWord
        if (before === null) limit = limit ?? 1
        used.add(i)
        continue
      }
    }
    const ordinal = ordinalValue(token.text)
    const toWord = tokens[i + 1]?.text ?? ''
    const ordinalHigh = ordinalValue(tokens[i + 2]?.text ?? '')
    if (
      ordinal !== null &&
      ordinalHigh !== null &&
      ORDINAL_RANGE_JOINERS.has(toWord) &&
      /\d/.test(token.text + (tokens[i + 2]?.text ?? ''))
    ) {
      between.push({ low: Math.min(ordinal, ordinalHigh), high: Math.max(ordinal, ordinalHigh), start: i, end: i + 2 })
      used.add(i)
      used.add(i + 1)
      used.add(i + 2)
      i += 2
      continue
    }
    if (token.number === null || quotedSpans.has(i)) continue
    if (used.has(i)) continue
    const value = token.number
    if (limit !== null && value === limit) {
      used.add(i)
      continue
    }
    // between X and Y
    const previous = tokens[i - 1]?.text ?? ''
    const andWord = tokens[i + 1]?.text ?? ''
    const high = tokens[i + 2]?.number ?? null
    if (BETWEEN_WORDS.has(previous) && AND_WORDS.has(andWord) && high !== null) {
      between.push({ low: Math.min(value, high), high: Math.max(value, high), start: i - 1, end: i + 2 })
      for (let k = i - 1; k <= i + 2; k++) used.add(k)
      i += 2
      continue
    }
    if (CLOSEST_LINKS.has(previous) && CLOSEST_WORDS.has(tokens[i - 2]?.text ?? '')) {
      closest = { value, index: i - 2 }
      used.add(i)
      used.add(i - 1)
      used.add(i - 2)
      continue
    }
    // the comparator right before the number (an article or a currency word may sit between)
    let k = i
    while (k > 0 && COMPARATOR_GAP_WORDS.has(tokens[k - 1]?.text ?? '') && i - k < 2) k--
    let matched: readonly [string, Comparison] | undefined
    for (const candidate of COMPARATORS) {
      const phrase = candidate[0].split(' ')
      for (const end of [k, i]) {
        if (phraseAt(tokens, end - phrase.length, phrase)) {
          matched = candidate
          k = end
          break
        }
      }
      if (matched) break
    }
    const isLimitCandidate =
      Number.isInteger(value) &&
      value > 0 &&
      value <= 1000 &&
      (LIMIT_BEFORE.has(previous) ||
        SUPERLATIVES[tokens[i + 1]?.text ?? ''] !== undefined ||
        DIMENSION_ADJECTIVES[tokens[i + 1]?.text ?? '']?.words !== undefined ||
        SUPERLATIVES[previous] !== undefined ||
        (DISTINCT_WORDS.has(tokens[i + 1]?.text ?? '') && list) ||
        (list && LIMIT_NOUN_BEFORE.has(previous)) ||
        (superlatives.length > 0 && LIMIT_NOUN_BEFORE.has(previous) && !boolean))
    if (matched && !(isLimitCandidate && (matched[0] === 'of' || matched[0] === 'de'))) {
      const phrase = matched[0].split(' ')
      const start = k - phrase.length
      const first = phrase[0] ?? ''
      comparators.push({
        op: matched[1],
        value,
        percent: token.percent,
        start,
        numberIndex: i,
        hints: DIMENSION_ADJECTIVES[first]?.words ?? [],
      })
      for (let m = start; m <= i; m++) used.add(m)
      continue
    }
    if (isLimitCandidate && limit === null) {
      limit = value
      used.add(i)
      continue
    }
    strayNumbers.push({ value, index: i })
  }
  if (limit === null && (list || superlatives.length > 0)) {
    // "the three players", "two most frequent": number words without digits
    for (let i = 0; i < tokens.length; i++) {
      const word = tokens[i]?.text ?? ''
      if (!ONE_WORDS.has(word) || used.has(i)) continue
      if (SUPERLATIVES[tokens[i + 1]?.text ?? ''] !== undefined && tokens[i - 1]?.text === 'top') {
        limit = 1
        used.add(i)
      }
    }
  }

  const dates: Array<{ op: Comparison | 'between'; value: string; high?: string; index: number }> = []
  for (let i = 0; i < tokens.length; i++) {
    const match = /^date(\d+)$/.exec(tokens[i]?.text ?? '')
    if (!match) continue
    const value = dateValues[Number(match[1])] ?? ''
    let b = i - 1
    while (b > 0 && DATE_ARTICLES.has(tokens[b]?.text ?? '')) b--
    const before = tokens[b]?.text ?? ''
    let h = i + 1
    const joiner = tokens[h]?.text ?? ''
    h++
    while (h < tokens.length && DATE_ARTICLES.has(tokens[h]?.text ?? '')) h++
    const highMatch = /^date(\d+)$/.exec(tokens[h]?.text ?? '')
    used.add(i)
    if (DATE_RANGE_OPENERS.has(before) && highMatch && DATE_RANGE_JOINERS.has(joiner)) {
      dates.push({ op: 'between', value, high: dateValues[Number(highMatch[1])] ?? '', index: i })
      for (let k = b; k <= h; k++) used.add(k)
      i = h
      continue
    }
    const op: Comparison = DATE_AFTER_WORDS.has(before)
      ? '>'
      : DATE_SINCE_WORDS.has(before)
        ? '>='
        : DATE_BEFORE_WORDS.has(before)
          ? '<'
          : DATE_UNTIL_WORDS.has(before)
            ? '<='
            : '='
    if (op !== '=') for (let k = b; k < i; k++) used.add(k)
    dates.push({ op, value, index: i })
  }
  const shareAt = findPhrase(tokens, SHARE_PHRASES)
  if (shareAt >= 0) for (let k = shareAt; k < shareAt + 2; k++) used.add(k)
  const all = tokens.some((token, index) => ALL_WORDS.has(token.text) && index < 6)
  const any = tokens.some((token) => ANY_WORDS.has(token.text)) || findPhrase(tokens, EXISTENCE_PHRASES) >= 0
  const distinct = tokens.some((token) => DISTINCT_WORDS.has(token.text))
  const nonEmpty = findPhrase(tokens, NON_EMPTY_PHRASES) >= 0
  const noAt = findPhrase(tokens, NO_ONE_PHRASES)
  return {
    tokens,
    boolean,
    list,
    count,
    aggregates,
    distinct,
    all,
    any,
    superlatives,
    comparators,
    between,
    closest,
    limit,
    position,
    used,
    strayNumbers,
    unsupported,
    nonEmpty,
    negated: noAt >= 0,
    offset,
    quoted,
    dates,
    share: shareAt >= 0,
  }
}
