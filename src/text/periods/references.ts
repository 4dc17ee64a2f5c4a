import { ordinal } from './mentions/ordinals.js'
import type { PeriodGrain } from './mentions/period-mention.js'
import { periodsIn } from './mentions.js'
import type { Period } from './period.js'

/** The length of period a relative reference is about; `any` for a report or filing of any length. */
export type ReferenceGrain = 'year' | 'half' | 'quarter' | 'month' | 'any'

/** A period named outright: `Q2 2023`, `fiscal 2022`, `H1 2023`, `March 2024`, `2019–2021`. */
export interface AbsoluteReference {
  readonly kind: 'absolute'
  readonly grain: PeriodGrain
  /** Calendar dates; fiscal year and quarter when the question gave them (`Q2 2023` gives both). */
  readonly period: Period
  readonly fiscal: boolean
  readonly text: string
}

/**
 * A period named relative to the others: `the most recent quarter` (offset 0), `the prior year`
 * (offset 1), `the last three years` (count 3), `the first half` (part 1 of the latest year).
 */
export interface LatestReference {
  readonly kind: 'latest'
  readonly grain: ReferenceGrain
  /** 0: the latest; 1: the one before it. */
  readonly offset: number
  /** How many periods from the offset on (`the last three years`: 3). */
  readonly count: number
  /** Quarter (1–4) or half (1–2) of the latest year that has it, when the question names one without a year. */
  readonly part?: number
  readonly text: string
}

/** Every period of a length: `each quarter`, `over the reported quarters`, `every year`. */
export interface EveryReference {
  readonly kind: 'every'
  readonly grain: ReferenceGrain
  readonly text: string
}

export type PeriodReference = AbsoluteReference | LatestReference | EveryReference

const GRAIN_WORDS: readonly [RegExp, ReferenceGrain][] = [
  [/^(quarter|trimestre|quartal|vorquartal|10-?q|quarterly)/i, 'quarter'],
  [/^(half|semestre|halbjahr)/i, 'half'],
  [/^(month|mois|monat|mes)/i, 'month'],
  [/^(year|fiscal year|exercice|ann[ée]e|an\b|jahr|gesch[äa]ftsjahr|vorjahr|a[ñn]o|ejercicio|10-?k|annual)/i, 'year'],
]

function grainOfWord(word: string): ReferenceGrain {
  const found = GRAIN_WORDS.find(([pattern]) => pattern.test(word.trim()))
  return found ? found[1] : 'any'
}

const COUNT_WORDS: Readonly<Record<string, number>> = { two: 2, three: 3, four: 4, five: 5, six: 6, eight: 8, ten: 10 }

const NOUN =
  '(quarters?|years?|halves|half(?:[\\s-]years?)?|months?|periods?|reports?|filings?|statements?|results|10-?[KQ]s?|annual\\s+reports?|quarterly\\s+reports?)'
const QUALIFIER = '(?:(?:fiscal|financial|reported|completed|full|calendar|available)\\s+)*'

/** `compared with the prior year`: the period is the comparison's other side, not what is asked about. */
const COMPARISON_BEFORE =
  /(?:compar\w*|versus|vs\.?|relative|against|than|over|from|since|im\s+vergleich|gegen[üu]ber|par\s+rapport|frente|respecto)\s+(?:to\s+|with\s+|zum\s+|à\s+|au\s+|a\s+|al\s+)?(?:the\s+|a\s+|l['’]|el\s+)?$/iu
const COMPARISON_AFTER = /^[\s-]*(?:period|quarter|comparable|levels?)\b/i

interface RelativeRule {
  readonly pattern: RegExp
  readonly read: (m: RegExpMatchArray) => PeriodReference | null
  /** The reference is the other side of a comparison when such words come right before it. */
  readonly comparable?: boolean
  /**
   * Only when the question names no period outright: `Q2 2023 year over year` compares that
   * quarter with the one a year before (its own report gives both), not every year.
   */
  readonly unlessAbsolute?: boolean
}

const latest = (grain: ReferenceGrain, text: string, offset = 0, count = 1, part?: number): LatestReference => ({
  kind: 'latest',
  grain,
  offset,
  count,
  ...(part ? { part } : {}),
  text: text.trim(),
})

const RELATIVE_RULES: readonly RelativeRule[] = [
  // the last three years · the past 2 fiscal years · the previous four quarters
  {
    pattern: new RegExp(
      `\\b(?:last|past|latest|most\\s+recent|previous|prior|preceding)\\s+(two|three|four|five|six|eight|ten|\\d{1,2})\\s+${QUALIFIER}(quarters|years|halves|months)\\b`,
      'giu',
    ),
    read: (m) => {
      const count = /^\d+$/.test(m[1] ?? '') ? Number(m[1]) : (COUNT_WORDS[(m[1] ?? '').toLowerCase()] ?? 1)
      return count >= 1 && count <= 40 ? latest(grainOfWord(m[2] ?? ''), m[0], 0, count) : null
    },
  },
  // the most recent quarter · the latest 10-K · last year · this fiscal year · the current quarter
  {
    pattern: new RegExp(
      `\\b(?:most\\s+recent(?:ly\\s+(?:reported|completed|filed))?|latest|last|current|this|newest|recent)\\s+${QUALIFIER}${NOUN}(?![\\w-])`,
      'giu',
    ),
    read: (m) => latest(grainOfWord(m[1] ?? ''), m[0]),
  },
  // the prior year · the previous quarter · the preceding fiscal year
  {
    pattern: new RegExp(`\\b(?:prior|previous|preceding)\\s+${QUALIFIER}(quarter|year|half|month|period)\\b`, 'giu'),
    read: (m) => latest(grainOfWord(m[1] ?? ''), m[0], 1),
    comparable: true,
  },
  // the first half · the second quarter · Q2 · H1 (no year: the latest year that has it)
  {
    pattern: /\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?(quarter|half)\b/giu,
    read: (m) => {
      const part = ordinal(m[1] ?? '')
      const grain = grainOfWord(m[2] ?? '')
      return part && (grain === 'quarter' || part <= 2) ? latest(grain, m[0], 0, 1, part) : null
    },
  },
  {
    pattern: /(?<![\p{L}\d])([QH])([1-4])(?![\p{L}\d])/gu,
    read: (m) => {
      const part = Number(m[2])
      const grain = m[1] === 'Q' ? 'quarter' : 'half'
      return grain === 'quarter' || part <= 2 ? latest(grain, m[0], 0, 1, part) : null
    },
  },
  // each quarter · every year · all the quarters · over the reported quarters · quarter by quarter
  {
    pattern: new RegExp(
      `\\b(?:each|every|all(?:\\s+(?:of\\s+)?the)?)\\s+(?:of\\s+the\\s+)?${QUALIFIER}(quarters?|years?|halves|half|months?|periods?)\\b`,
      'giu',
    ),
    read: (m) => ({ kind: 'every', grain: grainOfWord(m[1] ?? ''), text: m[0].trim() }),
  },
  {
    pattern:
      /\b(?:over|across|for|in|during)\s+(?:all\s+)?(?:the\s+)?(?:reported|available|covered)\s+(quarters|years|periods|months)\b/giu,
    read: (m) => ({ kind: 'every', grain: grainOfWord(m[1] ?? ''), text: m[0].trim() }),
  },
  {
    pattern: /\b(quarter|year|month)[\s-]by[\s-]\1\b/giu,
    read: (m) => ({ kind: 'every', grain: grainOfWord(m[1] ?? ''), text: m[0].trim() }),
  },
  {
    pattern:
      /\b(quarter|year|month)[\s-](?:over|on)[\s-]\1\b(?![\s-]+(?:growth|change|increase|decrease|decline|comparison))/giu,
    read: (m) => ({ kind: 'every', grain: grainOfWord(m[1] ?? ''), text: m[0].trim() }),
    unlessAbsolute: true,
  },
  // French: le dernier trimestre · le trimestre le plus récent · l'année dernière · l'exercice précédent · chaque trimestre
  {
    pattern:
      /\b(?:derni[eè]re?|plus\s+r[ée]cente?)\s+(trimestre|exercice|semestre|mois|ann[ée]e)\b|\b(trimestre|exercice|semestre|mois|ann[ée]e)\s+(?:le\s+plus\s+r[ée]cent|la\s+plus\s+r[ée]cente|derni[eè]re?|en\s+cours)\b|\bl['’](an)\s+dernier\b|\bcette\s+(ann[ée]e)\b/giu,
    read: (m) => latest(grainOfWord(m[1] ?? m[2] ?? m[3] ?? m[4] ?? ''), m[0]),
  },
  {
    pattern: /\b(trimestre|exercice|semestre|ann[ée]e)\s+pr[ée]c[ée]dente?\b/giu,
    read: (m) => latest(grainOfWord(m[1] ?? ''), m[0], 1),
    comparable: true,
  },
  {
    pattern: /\bchaque\s+(trimestre|exercice|semestre|mois|ann[ée]e)\b/giu,
    read: (m) => ({ kind: 'every', grain: grainOfWord(m[1] ?? ''), text: m[0].trim() }),
  },
  // German: das letzte Quartal · das jüngste Geschäftsjahr · Vorjahr · Vorquartal · jedes Quartal
  {
    pattern:
      /(?<![\p{L}])(?:letzte[nsrm]?|j[üu]ngste[nsrm]?|aktuelle[nsrm]?|laufende[nsrm]?)\s+(Quartal|Gesch[äa]ftsjahr|Jahr|Halbjahr|Monat)(?:e?s)?(?![\p{L}])/giu,
    read: (m) => latest(grainOfWord(m[1] ?? ''), m[0]),
  },
  {
    pattern: /(?<![\p{L}])(Vorjahr|Vorquartal)(?:es|s)?(?![\p{L}])/giu,
    read: (m) => latest(grainOfWord(m[1] ?? ''), m[0], 1),
    comparable: true,
  },
  {
    pattern: /(?<![\p{L}])(?:jede[nsrm]?|alle)\s+(Quartale?|Jahre?|Gesch[äa]ftsjahre?|Monate?)(?![\p{L}])/giu,
    read: (m) => ({ kind: 'every', grain: grainOfWord(m[1] ?? ''), text: m[0].trim() }),
  },
  // Spanish: el último trimestre · el año más reciente · el año pasado · el ejercicio anterior · cada trimestre
  {
    pattern:
      /(?<![\p{L}])(?:[úu]ltimo|m[áa]s\s+reciente)\s+(trimestre|a[ñn]o|ejercicio|semestre|mes)(?![\p{L}])|(?<![\p{L}])(trimestre|a[ñn]o|ejercicio|semestre|mes)\s+(?:m[áa]s\s+reciente|pasado|en\s+curso|actual)(?![\p{L}])/giu,
    read: (m) => latest(grainOfWord(m[1] ?? m[2] ?? ''), m[0]),
  },
  {
    pattern: /(?<![\p{L}])(trimestre|a[ñn]o|ejercicio|semestre)\s+(?:anterior|previo|precedente)(?![\p{L}])/giu,
    read: (m) => latest(grainOfWord(m[1] ?? ''), m[0], 1),
    comparable: true,
  },
  {
    pattern: /(?<![\p{L}])cada\s+(trimestre|a[ñn]o|ejercicio|semestre|mes)(?![\p{L}])/giu,
    read: (m) => ({ kind: 'every', grain: grainOfWord(m[1] ?? ''), text: m[0].trim() }),
  },
]

/** `text` with the given spans blanked out (same length, so positions stay). */
function blank(text: string, spans: readonly { readonly index: number; readonly length: number }[]): string {
  let result = text
  for (const { index, length } of spans)
    result = result.slice(0, index) + ' '.repeat(length) + result.slice(index + length)
  return result
}

/**
 * The periods a question names, in order: absolute ones (`2022`, `FY2022`, `fiscal 2023`, `Q2
 * 2023`, `the second quarter of fiscal 2024`, `H1 2023`, `March 2024`, `from 2021 to 2023`,
 * `FY2017 - FY2019`) and relative ones, resolved later against the documents by matchPeriods
 * (`the most recent quarter`, `latest`, `last year`, `the prior year`, `the last three years`,
 * `the first half`, `Q2` without a year, `each quarter`, `over the reported quarters`), in
 * English, French, German and Spanish. A relative period that is the other side of a comparison
 * (`compared with the prior year`, `the prior year period`) is not something the question asks
 * about, so it is left out.
 */
export function periodReferences(question: string): PeriodReference[] {
  const mentions = periodsIn(question)
  const references: { readonly index: number; readonly reference: PeriodReference }[] = mentions.map((mention) => ({
    index: mention.index,
    reference: {
      kind: 'absolute',
      grain: mention.grain,
      period: mention.period,
      fiscal: mention.fiscal,
      text: mention.text,
    },
  }))
  let rest = blank(
    question,
    mentions.map((mention) => ({ index: mention.index, length: mention.text.length })),
  )
  for (const rule of RELATIVE_RULES) {
    const taken: { index: number; length: number }[] = []
    for (const m of rest.matchAll(rule.pattern)) {
      const index = m.index ?? 0
      taken.push({ index, length: m[0].length })
      if (
        rule.comparable &&
        (COMPARISON_BEFORE.test(rest.slice(Math.max(0, index - 40), index)) ||
          COMPARISON_AFTER.test(rest.slice(index + m[0].length)))
      ) {
        continue
      }
      if (rule.unlessAbsolute && mentions.length > 0) continue
      const reference = rule.read(m)
      if (reference) references.push({ index, reference })
    }
    rest = blank(rest, taken)
  }
  return references.sort((a, b) => a.index - b.index).map((entry) => entry.reference)
}
