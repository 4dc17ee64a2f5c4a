import type { ColumnSchema, TableSchema } from '../types.js'
import { abbreviates, SHORTEST_ALONE } from './header-abbreviations.js'
import {
  ABBREVIATIONS,
  ASKING_HEADER_WORDS,
  FLAG_HEADER_VERBS,
  FRENCH_GLOSSARY,
  LONGEST_CODE_HEADER,
} from './lexicon/headers.js'
import { ORDINAL_ADJECTIVES, ORDINALS } from './lexicon/numbers.js'
import { FILLERS, GENERIC_WORDS, NEVER_SOLE } from './lexicon/vague-words.js'
import { closeWords, singularOf, splitHeader, stemsOf, type Token, words } from './tokenise.js'

/** A column named in the question, by its header words (fuzzy, stemmed, abbreviations expanded). */
export interface ColumnMention {
  readonly table: TableSchema
  readonly column: ColumnSchema
  /** First and last question token of the mention. */
  readonly start: number
  readonly end: number
  /** Header words matched (not counting vague words like "index"). */
  readonly strength: number
  /** Share of the header's words the mention covers (0–1). */
  readonly coverage: number
  /** Other columns the same words name almost as well (a numeric one may be wanted instead). */
  readonly alternatives?: readonly ColumnSchema[]
  /** The alternatives these words name less well than this column (a stand-in, not a rival). */
  readonly weaker?: readonly ColumnSchema[]
  /** Columns of the same table the same words name exactly as well: the planner cannot choose. */
  readonly ties?: readonly ColumnSchema[]
}

interface Slot {
  readonly word: string
  readonly stems: ReadonlySet<string>
  readonly generic: boolean
}

const profileCache = new WeakMap<ColumnSchema, Slot[][]>()

function slotOf(word: string, sentence = false): Slot {
  // a survey question's asking words ("What is your …") say nothing of what the column holds
  const asking = sentence && ASKING_HEADER_WORDS.has(word)
  return { word, stems: new Set(stemsOf(word)), generic: GENERIC_WORDS.has(word) || asking }
}

/** The ways a header can be said: its own words, then with abbreviations spelled out. */
export function columnVariants(column: ColumnSchema): Slot[][] {
  const cached = profileCache.get(column)
  if (cached) return cached
  const said = words(splitHeader(column.name))
  const allWords = said.filter((word) => !FILLERS.has(word))
  // `is_featured`, `seller_is_verified`: a code's verb is no word of the question's ("what is …");
  // a header that is a sentence ("What is your age?") keeps its words, its asking words weak
  const nonVerbs = allWords.filter((word) => !FLAG_HEADER_VERBS.has(word))
  const isCode = said.length <= LONGEST_CODE_HEADER && nonVerbs.length > 0
  const headerWords = isCode ? nonVerbs : allWords
  const variants: Slot[][] = [headerWords.map((word) => slotOf(word, !isCode))]
  if (headerWords.some((word) => ABBREVIATIONS[word] !== undefined)) {
    const expanded = headerWords.flatMap((word) => {
      const expansion = ABBREVIATIONS[word]
      return expansion ? words(expansion).filter((w) => !FILLERS.has(w)) : [word]
    })
    variants.push(expanded.map((word) => slotOf(word, !isCode)))
  }
  // `type1`, `Type 2`: the number said as a rank ("primary type", "second type")
  for (const variant of ordinalVariants(headerWords)) variants.push(variant.map((word) => slotOf(word, !isCode)))
  // `FG3_PCT` and `fg3pct` as one word too
  const compact = headerWords.join('')
  if (headerWords.length > 1 && compact.length <= 20) variants.push([slotOf(compact)])
  profileCache.set(column, variants)
  return variants
}

/** Ordinal words by the number they say: "first", "primary" for 1 (English and French). */
const ORDINAL_WORDS: ReadonlyMap<number, readonly string[]> = (() => {
  const byNumber = new Map<number, string[]>()
  for (const [word, value] of [...Object.entries(ORDINALS), ...Object.entries(ORDINAL_ADJECTIVES)]) {
    if (!/^\p{L}+$/u.test(word)) continue
    byNumber.set(value, [...(byNumber.get(value) ?? []), word])
  }
  return byNumber
})()

/**
 * A header numbered at its end (`type1`, `Type 2`; one digit, after a word): the same header with
 * the number said as an ordinal word, one variant per word.
 */
function ordinalVariants(headerWords: readonly string[]): string[][] {
  const last = headerWords.length - 1
  const glued = /^(\p{L}{2,})([1-9])$/u.exec(headerWords[last] ?? '')
  const apart = last >= 1 && /^[1-9]$/.test(headerWords[last] ?? '') && /^\p{L}{2,}$/u.test(headerWords[last - 1] ?? '')
  if (!glued && !apart) return []
  const stem = glued ? [...headerWords.slice(0, last), glued[1] ?? ''] : headerWords.slice(0, last)
  const number = Number(glued ? glued[2] : headerWords[last])
  return (ORDINAL_WORDS.get(number) ?? []).map((ordinal) => [ordinal, ...stem])
}

/** The words a question token can stand for: itself, and its French gloss or abbreviation's words. */
export function tokenWords(token: Token): readonly string[] {
  const singular = singularOf(token.text)
  const extra = FRENCH_GLOSSARY[token.text] ?? FRENCH_GLOSSARY[singular] ?? ABBREVIATIONS[token.text]
  return extra ? [token.text, ...words(extra)] : [token.text]
}

function slotMatches(slot: Slot, candidates: readonly string[]): boolean {
  return candidates.some((word) => closeWords(word, slot.word) && stemsOf(word).some((stem) => slot.stems.has(stem)))
}

/** The best span of the question for one header variant starting at `start`, or null. */
function spanAt(
  tokens: readonly Token[],
  start: number,
  variant: Slot[],
  blocked: ReadonlySet<number>,
  soleGeneric: ReadonlySet<string> = new Set(),
) {
  const used = new Set<number>()
  // slots matched by a word the header abbreviates: weaker than the word itself
  const cuts = new Set<number>()
  let last = -1
  for (let j = start; j < tokens.length; j++) {
    const token = tokens[j]
    if (!token || blocked.has(j)) break
    const candidates = tokenWords(token)
    const slot = variant.findIndex((candidate, index) => !used.has(index) && slotMatches(candidate, candidates))
    if (slot >= 0) {
      used.add(slot)
      last = j
      continue
    }
    const cut =
      variant.length <= LONGEST_CODE_HEADER
        ? variant.findIndex((candidate, index) => !used.has(index) && abbreviates(candidate.word, token.text))
        : -1
    if (cut >= 0) {
      used.add(cut)
      cuts.add(cut)
      last = j
      continue
    }
    if (FILLERS.has(token.text) && j > start) continue
    break
  }
  if (last < 0) return null
  const shortCutAlone = [...cuts].some((index) => (variant[index]?.word.length ?? 0) < SHORTEST_ALONE)
  if (shortCutAlone && cuts.size === used.size) return null
  const strongTotal = variant.filter((slot) => !slot.generic).length
  const strong = [...used].filter((index) => !variant[index]?.generic).length
  const weak = used.size - strong
  // a header made only of vague words ("Rate") must be said whole; a vague word no other column
  // uses ("the type of exercise" → "Lift Type") names its column weakly
  const sole =
    strong === 0 &&
    weak === 1 &&
    [...used].some((index) => soleGeneric.has(stemsOf(variant[index]?.word ?? '')[1] ?? ''))
  if (strong === 0 && !(strongTotal === 0 && weak === variant.length) && !sole) return null
  if (sole) return { start, end: last, strength: 0.25, coverage: 0.5 }
  const coverage = strongTotal === 0 ? 1 : strong / strongTotal
  return { start, end: last, strength: strong + weak * 0.25 - cuts.size * 0.25, coverage }
}

/**
 * Every column mention, longest and best-covered first, without overlapping spans; a span that
 * names two columns equally well goes to the one with the shorter header.
 */
export function findColumnMentions(
  tokens: readonly Token[],
  tables: readonly TableSchema[],
  blocked: ReadonlySet<number>,
): ColumnMention[] {
  const candidates: ColumnMention[] = []
  // vague header words used by exactly one column of the tables
  const genericOwners = new Map<string, Set<ColumnSchema>>()
  for (const table of tables) {
    for (const column of table.columns) {
      for (const slot of columnVariants(column)[0] ?? []) {
        if (!slot.generic || FILLERS.has(slot.word) || NEVER_SOLE.has(slot.word)) continue
        const key = stemsOf(slot.word)[1] ?? slot.word
        const owners = genericOwners.get(key) ?? new Set()
        owners.add(column)
        genericOwners.set(key, owners)
      }
    }
  }
  const soleGeneric = new Set([...genericOwners].filter(([, owners]) => owners.size === 1).map(([word]) => word))
  for (const table of tables) {
    for (const column of table.columns) {
      let best: ColumnMention | null = null
      for (const variant of columnVariants(column)) {
        for (let start = 0; start < tokens.length; start++) {
          if (blocked.has(start) || FILLERS.has(tokens[start]?.text ?? '')) continue
          const span = spanAt(tokens, start, variant, blocked, soleGeneric)
          if (!span) continue
          // "List the …", "Report the …": the opening word is the instruction, not part of `listing_url`
          if (start === 0 && span.end === 0 && span.coverage < 1) continue
          const mention = { table, column, ...span }
          if (!best || score(mention) > score(best)) best = mention
        }
      }
      if (best) candidates.push(best)
    }
  }
  candidates.sort((a, b) => score(b) - score(a) || a.column.name.length - b.column.name.length || a.start - b.start)
  const taken = new Set<number>()
  const accepted: ColumnMention[] = []
  const overlapping = (a: ColumnMention, b: ColumnMention) => a.start <= b.end && b.start <= a.end
  for (const candidate of candidates) {
    let overlaps = false
    for (let i = candidate.start; i <= candidate.end; i++) if (taken.has(i)) overlaps = true
    if (overlaps) continue
    const rivals = candidates.filter((other) => other !== candidate && overlapping(other, candidate))
    // a partial mention (one word of a long header) needs that word to point at this column alone
    if (candidate.coverage < 0.5 && rivals.length > 0) continue
    for (let i = candidate.start; i <= candidate.end; i++) taken.add(i)
    const alternativeMentions = rivals.filter((other) => other.table === candidate.table && other.coverage >= 0.5)
    const alternatives = alternativeMentions.map((other) => other.column)
    const weaker = alternativeMentions.filter((other) => score(other) < score(candidate)).map((other) => other.column)
    const sameWords = (other: ColumnMention) => other.start === candidate.start && other.end === candidate.end
    const ties = rivals
      .filter((other) => other.table === candidate.table && sameWords(other) && score(other) === score(candidate))
      .map((other) => other.column)
    const withAlternatives = alternatives.length > 0 ? { ...candidate, alternatives, weaker } : candidate
    accepted.push(ties.length > 0 ? { ...withAlternatives, ties } : withAlternatives)
  }
  return accepted.sort((a, b) => a.start - b.start)
}

function score(mention: Pick<ColumnMention, 'strength' | 'coverage'>): number {
  return mention.strength + mention.coverage * 0.9
}

/** Columns whose header holds one of these words (for "older" → age, "cheapest" → price). */
export function columnsNamed(tables: readonly TableSchema[], hints: readonly string[]): ColumnMention[] {
  const hintStems = new Set(hints.flatMap(stemsOf))
  const found: ColumnMention[] = []
  for (const table of tables) {
    for (const column of table.columns) {
      if (column.type !== 'integer' && column.type !== 'number') continue
      const variants = columnVariants(column)
      if (variants.some((variant) => variant.some((slot) => [...slot.stems].some((stem) => hintStems.has(stem))))) {
        found.push({ table, column, start: -1, end: -1, strength: 0, coverage: 0 })
      }
    }
  }
  return found
}

export const isNumeric = (column: ColumnSchema): boolean => column.type === 'integer' || column.type === 'number'
