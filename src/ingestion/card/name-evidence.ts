import { escapeRegex } from '../../lib/regex.js'
import { LEGAL_FORM_WORDS } from '../../text/legal-forms.js'
import { type LegalName, legalNamesIn, nameKey } from './legal-names.js'
import type { CardLine, CardReading } from './reading.js'

/**
 * Where a document writes a name and what that says about the name being its subject: the
 * evidence subjectsOf (subjects.ts) weighs. Names are counted under their folded key
 * (legal-names.ts), with every way they were written.
 */

// What each place a name is found in says about it.
const REGISTRANT = 10
const DEFINED = 5
const DATELINE = 4
const HEADLINE = 3
const COVER_HEADING = 3
const COVER = 2
const METADATA = 2
const HEAD = 1
const SUBSIDIARIES = 1
const SAMPLE = 0.5
/** A weak legal form (Company, Group, International) says less than a strong one (Inc., plc). */
const WEAK_FORM_FACTOR = 0.75
/** Occurrences counted per place: a name on every page is no more the subject than one on ten. */
const MAX_COUNTED = 6

/** `(Exact name of registrant as specified in its charter)`: the line before it, or its start, names the filer. */
const REGISTRANT_LABEL =
  /\(?\s*exact\s+name\s+of\s+(?:the\s+)?registrants?\s+as\s+specified\s+in\s+its\s+charter\s*\)?/i
/** A paragraph that defines the document's own short name: `references to “Pfizer,” “the Company,” “we”`. */
const SELF_TERMS =
  /[“"](?:the\s+)?(?:company|registrant|corporation|we|us|our|issuer|soci[ée]t[ée]|gesellschaft|sociedad|compa[ñn][íi]a)[,.]?[”"]/i
const QUOTED = /[“"]\s*([^“”"]{2,60}?)\s*[,.]?\s*[”"]/gu
const AND_SUBSIDIARIES =
  /^\s*(?:and|AND)\s+(?:its\s+|ITS\s+)?(?:consolidated\s+)?(?:subsidiaries|SUBSIDIARIES|subsidiary|SUBSIDIARY|Subsidiaries|Subsidiary)/u
const NAME_WORD = "[\\p{Lu}\\d][\\p{L}\\d&'’.-]*"
const NAME_JOINER = '(?:&|and|of|de|du|des|la|y|und)'
/** Capitalised words of a name, with joiners (`Johnson & Johnson`, `Bank of America`). */
const NAME_WORDS = `(?:The\\s+)?${NAME_WORD}(?:\\s+(?:${NAME_JOINER}\\s+)?${NAME_WORD}){0,4}?`
/** Verbs of a headline, in lower, capitalised and upper case (names must keep their capitals, so no `i` flag). */
const HEADLINE_VERBS = [
  'reports',
  'report',
  'announces',
  'announce',
  'posts',
  'delivers',
  'publie',
  'annonce',
  'presenta',
  'anuncia',
  'meldet',
  'veröffentlicht',
]
  .flatMap((verb) => [verb, verb.charAt(0).toUpperCase() + verb.slice(1), verb.toUpperCase()])
  .join('|')
/** A press release's headline: `PepsiCo Reports First-Quarter 2023 Results`, `Johnson & Johnson Reports …`. */
const HEADLINE_SUBJECT = new RegExp(`^(${NAME_WORDS})\\s+(?:${HEADLINE_VERBS})(?![\\p{L}\\d])`, 'u')
/**
 * A press release's dateline: the name right before an exchange's code and a ticker, `Johnson &
 * Johnson (NYSE: JNJ)`, `PepsiCo, Inc. (Nasdaq: PEP)`.
 */
const BEFORE_TICKER = new RegExp(
  `(?<![\\p{L}\\d])(${NAME_WORDS}),?\\s*\\(\\s*[A-Z][A-Za-z]{1,9}(?:\\s+[A-Z][a-z]+)?\\s*:\\s*[A-Z]{1,5}(?:\\.[A-Z])?\\s*[);]`,
  'gu',
)

/** What is known of one name: its score, how often each place gave it, how it was written. */
export interface Evidence {
  score: number
  readonly counted: Map<string, number>
  readonly surfaces: Map<string, number>
}

/** The evidence for every name of a document, by folded key. */
export class Ledger {
  readonly byKey = new Map<string, Evidence>()

  add(key: string, surface: string, weight: number, place: string): void {
    if (!key) return
    let evidence = this.byKey.get(key)
    if (!evidence) {
      evidence = { score: 0, counted: new Map(), surfaces: new Map() }
      this.byKey.set(key, evidence)
    }
    const seen = evidence.counted.get(place) ?? 0
    evidence.counted.set(place, seen + 1)
    evidence.surfaces.set(surface, (evidence.surfaces.get(surface) ?? 0) + 1)
    if (seen < MAX_COUNTED) evidence.score += weight
  }

  /** Every form of a legal name (`Cash Flows Pfizer Inc.` also counts for `Pfizer Inc.`). */
  addName(name: LegalName, weight: number, place: string): void {
    name.keys.forEach((key, index) => {
      this.add(key, name.surfaces[index] ?? name.surface, name.strong ? weight : weight * WEAK_FORM_FACTOR, place)
    })
  }
}

/** A line that is a name: short, capitalised words, not a form's printed label. */
export function looksLikeName(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean)
  if (words.length === 0 || words.length > 8 || text.length > 90) return false
  if ((text.match(/\d/g)?.length ?? 0) > 2) return false
  const capitalised = words.filter((word) => /^[\p{Lu}\d&]/u.test(word)).length
  return capitalised >= Math.ceil(words.length * 0.7) && /\p{L}{2}/u.test(text)
}

/** The filer's name on an SEC form's cover: the text before `(Exact name of registrant …)`, or the line above it. */
function registrantNames(cover: readonly CardLine[]): string[] {
  const names: string[] = []
  cover.forEach((line, index) => {
    const label = line.text.match(REGISTRANT_LABEL)
    if (!label) return
    const before = line.text.slice(0, label.index).trim()
    const candidate = before.length >= 2 ? before : cover[index - 1]?.text.trim()
    if (candidate && looksLikeName(candidate)) names.push(candidate.replace(/[,;]+$/, ''))
  })
  return names
}

/** Name-like quoted terms: capitalised, a few words, not the document's generic self-references. */
function shortNameCandidates(text: string): string[] {
  const found: string[] = []
  for (const m of text.matchAll(QUOTED)) {
    const term = (m[1] ?? '').trim()
    if (!/^[\p{Lu}\d]/u.test(term) || term.split(/\s+/).length > 4) continue
    if (SELF_TERMS.test(`“${term}”`)) continue
    found.push(term)
  }
  return found
}

/** Subjects of the headlines among the title lines (`PepsiCo` in `PepsiCo Reports First-Quarter 2023 Results`). */
function headlineNames(lines: readonly string[]): string[] {
  const names: string[] = []
  for (const line of lines) {
    const name = line.match(HEADLINE_SUBJECT)?.[1]?.trim()
    if (name && nameKey(name) && !/^(?:the\s+)?(?:company|group|board)$/i.test(name)) names.push(name)
  }
  return names
}

/** A short name the document defines (`Pfizer`) and the keys of the legal names in the same sentence. */
export interface ShortName {
  readonly short: string
  readonly keys: readonly string[]
}

/** What the evidence is read from, beside the document's own text. */
export interface EvidenceContext {
  /** The document's own title from its metadata, when meaningful. */
  readonly metadataTitle: string | null
  /** The lines that can name the document (see titleLines): a press release's headline names its subject. */
  readonly titleLines: readonly string[]
}

/** Names with a legal form on the cover (more in its headings) and on the first pages after it. */
function writtenNames(reading: CardReading, ledger: Ledger, shortNames: ShortName[]): void {
  for (const line of reading.cover) {
    for (const name of legalNamesIn(line.text)) {
      ledger.addName(name, line.heading ? COVER_HEADING + COVER : COVER, 'cover')
    }
  }
  for (const [index, line] of reading.head.entries()) {
    const names = legalNamesIn(line.text)
    if (index >= reading.cover.length) for (const name of names) ledger.addName(name, HEAD, 'head')
    for (const name of names) {
      if (AND_SUBSIDIARIES.test(line.text.slice(name.index + name.surface.length))) {
        ledger.addName(name, SUBSIDIARIES, 'subsidiaries')
      }
    }
    // The paragraph that defines `the Company`: its legal names, and the short names it defines.
    if (names.length > 0 && SELF_TERMS.test(line.text)) {
      for (const name of names) ledger.addName(name, DEFINED, 'defined')
      for (const short of shortNameCandidates(line.text)) shortNames.push({ short, keys: names.flatMap((n) => n.keys) })
    }
  }
  for (const piece of reading.sample) {
    for (const name of legalNamesIn(piece)) {
      ledger.addName(name, SAMPLE, 'sample')
      if (AND_SUBSIDIARIES.test(piece.slice(name.index + name.surface.length))) {
        ledger.addName(name, SUBSIDIARIES, 'subsidiaries')
      }
    }
  }
}

/** A press release's dateline and headline name its issuer, with or without a legal form. */
function pressReleaseNames(reading: CardReading, titleLines: readonly string[], ledger: Ledger): void {
  for (const line of reading.head) {
    for (const m of line.text.matchAll(BEFORE_TICKER)) {
      // A legal name that ends at the bracket (`PepsiCo, Inc. (Nasdaq: PEP)`), else the capitalised words.
      const end = (m.index ?? 0) + (m[1] ?? '').length
      const legal = legalNamesIn(line.text.slice(Math.max(0, end - 120), end)).at(-1)
      if (legal && legal.index + legal.surface.length >= Math.min(end, 120) - 1) {
        ledger.addName(legal, DATELINE, 'dateline')
        continue
      }
      const name = (m[1] ?? '').replace(/^the\s+/, '')
      const words = nameKey(name).split(' ').filter(Boolean)
      if (words.some((word) => !LEGAL_FORM_WORDS.has(word))) ledger.add(nameKey(name), name, DATELINE, 'dateline')
    }
  }
  for (const name of headlineNames(titleLines)) {
    ledger.add(nameKey(name), name, HEADLINE, 'headline')
    const pattern = new RegExp(`(?<![\\p{L}\\d])${escapeRegex(name)}(?![\\p{L}\\d])`, 'giu')
    for (const line of reading.head) {
      for (const m of line.text.matchAll(pattern)) ledger.add(nameKey(name), m[0], HEAD, 'headline-head')
    }
  }
}

/**
 * The evidence for every name a document writes: an SEC cover's registrant line, names with a
 * legal form on the cover and the first pages, the paragraph that defines `the Company` (and the
 * short names it defines), `X and Subsidiaries` headers, a sample of the rest, the metadata title,
 * a press release's dateline (`X (NYSE: XYZ)`) and headline (`X Reports …`).
 */
export function gatherEvidence(
  reading: CardReading,
  context: EvidenceContext,
): { ledger: Ledger; shortNames: ShortName[] } {
  const ledger = new Ledger()
  const shortNames: ShortName[] = []
  for (const name of registrantNames(reading.cover)) ledger.add(nameKey(name), name, REGISTRANT, 'registrant')
  writtenNames(reading, ledger, shortNames)
  if (context.metadataTitle) {
    for (const name of legalNamesIn(context.metadataTitle)) ledger.addName(name, METADATA, 'metadata')
  }
  pressReleaseNames(reading, context.titleLines, ledger)
  return { ledger, shortNames }
}
