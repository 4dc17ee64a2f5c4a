import { foldWord } from '../../text/folding.js'

/**
 * Organisation names as the law writes them: capitalised words ending with a legal form
 * (`Pfizer Inc.`, `American Water Works Company, Inc.`, `Amcor plc`, `Siemens AG`, `The Boeing
 * Company`). A strong form (Inc., Corporation, Ltd, LLC, plc, GmbH, S.A., N.V. …) says the words
 * before it are an organisation's name; a weak one (Company, Group, Holdings, International)
 * says so only when the name recurs or stands out, since `Operating Company` or `the Group` are
 * ordinary words.
 */

const STRONG_FORMS = [
  'Inc\\.?',
  'INC\\.?',
  'Incorporated',
  'INCORPORATED',
  'Corp\\.?',
  'CORP\\.?',
  'Corporation',
  'CORPORATION',
  'Ltd\\.?',
  'LTD\\.?',
  'Limited',
  'LIMITED',
  'LLC',
  'L\\.L\\.C\\.',
  'LLP',
  'L\\.P\\.',
  'plc',
  'PLC',
  'Plc',
  'GmbH',
  'AG',
  'SE',
  'KGaA',
  'S\\.A\\.S\\.',
  'S\\.A\\.U\\.',
  'S\\.A\\.',
  'SA',
  'SAS',
  'SARL',
  'S\\.à\\s?r\\.l\\.',
  'N\\.V\\.',
  'B\\.V\\.',
  'S\\.p\\.A\\.',
  'SpA',
  'S\\.r\\.l\\.',
  'S\\.L\\.',
  'Oyj',
  'ASA',
  'A/S',
  'K\\.K\\.',
]
const WEAK_FORMS = [
  'Company',
  'COMPANY',
  'Co\\.',
  'CO\\.',
  'Group',
  'GROUP',
  'Holdings',
  'HOLDINGS',
  'International',
  'INTERNATIONAL',
]

const FORM = `(?:${[...STRONG_FORMS, ...WEAK_FORMS].join('|')})`
const STRONG = new RegExp(`(?:${STRONG_FORMS.join('|')})$`, 'u')
const STRONG_WORD = new RegExp(`^(?:${STRONG_FORMS.join('|')}),?$`, 'u')
// A word of a name: a capital or a digit first (3M, Coca-Cola, AT&T, McDonald’s, S&P).
const WORD = "(?:[\\p{Lu}\\d][\\p{L}\\d&'’.\\-]*)"
const JOINER = '(?:&|and|AND|of|OF|de|des|du|la|le|der|die|und|y|et|for|FOR)'
const NAME = new RegExp(
  `(?<![\\p{L}\\d&'’.-])((?:(?:The|THE)\\s+)?${WORD}(?:\\s+(?:${JOINER}\\s+)?${WORD}){0,5})(?:,?\\s+${FORM})(?:,?\\s+${FORM})?(?![\\p{L}\\d&-])`,
  'gu',
)

/** Words that never make a name on their own: `The Company`, `Operating Company`, `Parent Company`. */
const GENERIC = new Set(
  [
    'the',
    'company',
    'companies',
    'group',
    'holding',
    'holdings',
    'international',
    'corporation',
    'registrant',
    'issuer',
    'parent',
    'subsidiary',
    'subsidiaries',
    'operating',
    'guarantor',
    'borrower',
    'lender',
    'trust',
    'our',
    'this',
    'such',
    'any',
    'each',
    'new',
    'delaware',
    'inc',
    'corp',
    'co',
    'ltd',
  ].map(foldWord),
)

/** A legal name found in text, with the shorter names it contains (`Cash Flows Pfizer Inc.` → `Pfizer Inc.`). */
export interface LegalName {
  /** As written, with `The` when the text has it. */
  readonly surface: string
  readonly index: number
  /** Folded keys of the name and of each shorter name ending with the same form, longest first. */
  readonly keys: readonly string[]
  /** Surfaces matching `keys`, one each. */
  readonly surfaces: readonly string[]
  /** Ends with a strong legal form. */
  readonly strong: boolean
}

/** The folded key of a name: words folded, `The` and punctuation dropped, `&` as `and`. */
export function nameKey(name: string): string {
  return name
    .replace(/&/g, ' and ')
    .split(/[\s,.'’()“”"-]+/u)
    .map((word) => foldWord(word))
    .filter((word) => word !== '' && word !== 'the')
    .join(' ')
}

const isWord = (token: string) => new RegExp(`^${WORD}$`, 'u').test(token)

/** Legal names in `text`, in order. */
export function legalNamesIn(text: string): LegalName[] {
  const names: LegalName[] = []
  for (const m of text.matchAll(NAME)) {
    const surface = m[0].replace(/\s+/g, ' ').trim()
    const lead = m[1] ?? ''
    const allWords = lead.replace(/^(?:The|THE)\s+/u, '').split(/\s+/)
    // A legal form inside the words ends an earlier name (`Siemens AG and Acme GmbH`): start after it.
    const lastForm = allWords.findLastIndex((word) => STRONG_WORD.test(word))
    const leadWords = lastForm >= 0 ? allWords.slice(lastForm + 1) : allWords
    if (lastForm >= 0) {
      const before = allWords.slice(0, lastForm + 1).join(' ')
      for (const name of legalNamesIn(before)) names.push({ ...name, index: (m.index ?? 0) + name.index })
    }
    const form = surface.slice(surface.indexOf(lead) + lead.length)
    // Every shorter name that starts at a word of the lead (not at a joiner) and keeps the form.
    const variants: string[] = []
    for (let start = 0; start < leadWords.length; start++) {
      const first = leadWords[start] ?? ''
      // A name starts with a word, not a joiner or a number (`2023 and Fabrikam Inc.`; `3M` is a word).
      if (!isWord(first) || new RegExp(`^${JOINER}$`, 'u').test(first) || /^[\d.,]+$/.test(first)) continue
      const words = leadWords.slice(start)
      if (words.every((word) => GENERIC.has(foldWord(word.replace(/[.,]$/, ''))))) continue
      const prefix = start === 0 && lastForm < 0 && /^(?:The|THE)\s/u.test(lead) ? lead.slice(0, 4) : ''
      variants.push(`${prefix}${words.join(' ')}${form}`.replace(/\s+/g, ' ').trim())
    }
    if (variants.length === 0) continue
    names.push({
      surface: variants[0] ?? surface,
      index: m.index ?? 0,
      keys: variants.map(nameKey),
      surfaces: variants,
      strong: STRONG.test(surface.replace(/[,\s]+$/, '')),
    })
  }
  return names
}
