import { escapeRegex } from '../../lib/regex.js'
import { foldWord } from '../../text/folding.js'
import { type LegalName, legalNamesIn, nameKey } from './legal-names.js'
import type { CardLine, CardReading } from './reading.js'
import { tickersOf } from './tickers.js'

/** Score a name needs to be the document's subject: one strong sign, or several weaker ones. */
const SUBJECT_MIN_SCORE = 5

// What each place a name is found in says about it.
const REGISTRANT = 10
const DEFINED = 5
const HEADLINE = 3
const DATELINE = 4
const COVER_HEADING = 3
const COVER = 2
const HEAD = 1
const SAMPLE = 0.5
const SUBSIDIARIES = 1
const METADATA = 2
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
const FORMERLY =
  /^\s*[,(]?\s*\(?\s*(?:formerly(?:\s+known\s+as)?|previously\s+known\s+as|f\/k\/a|anciennement|ehemals|vormals|anteriormente)\s+[“"]?([^”")\n]{3,80}?)[”"]?\s*[),;\n]/iu
const FORMER_NAME_LABEL = /^\(?\s*former\s+name\s+or\s+former\s+address/i
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
/** Words a legal name adds to a short one (`Amcor` → `Amcor plc`). */
const FORM_WORDS = new Set(
  [
    'inc',
    'incorporated',
    'corp',
    'corporation',
    'co',
    'company',
    'ltd',
    'limited',
    'llc',
    'llp',
    'plc',
    'group',
    'holdings',
    'international',
    'ag',
    'se',
    'sa',
    's a',
    'nv',
    'n v',
    'gmbh',
  ].flatMap((word) => word.split(' ')),
)

interface Evidence {
  score: number
  readonly counted: Map<string, number>
  readonly surfaces: Map<string, number>
}

class Ledger {
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
      this.add(key, name.surfaces[index] ?? name.surface, name.strong ? weight : weight * 0.75, place)
    })
  }
}

/** A registrant line that is a name: short, capitalised words, not a form's printed label. */
function looksLikeName(text: string): boolean {
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
    const candidate =
      before.length >= 2
        ? before
            .split(/\s{2,}|\n/)
            .at(-1)
            ?.trim()
        : cover[index - 1]?.text.trim()
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

/** The surface most often written, in mixed case when the text has one (`Pfizer Inc.` over `PFIZER INC.`). */
function usualSurface(surfaces: ReadonlyMap<string, number>): string {
  const ranked = [...surfaces].sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)
  const mixed = ranked.find(([surface]) => surface !== surface.toUpperCase())
  return (mixed ?? ranked[0] ?? [''])[0]
}

/** The best key, then the longest of its longer forms that is nearly as well attested (`Lockheed Martin Corporation` over `Martin Corporation`). */
function chooseMain(ledger: Ledger): { key: string; evidence: Evidence } | null {
  const ranked = [...mergedBySpelling(ledger.byKey)].sort(
    (a, b) => b[1].score - a[1].score || b[0].length - a[0].length,
  )
  const best = ranked[0]
  if (!best || best[1].score < SUBJECT_MIN_SCORE) return null
  let chosen = best
  for (const entry of ranked) {
    if (entry[1].score < best[1].score * 0.8) break
    if (entry[0].endsWith(` ${chosen[0]}`)) chosen = entry
  }
  // The legal name of a short one chosen from a headline (`Amcor` → `Amcor plc`), when the document writes it.
  const legal = ranked.find(
    ([key, evidence]) =>
      key.startsWith(`${chosen[0]} `) &&
      evidence.score >= chosen[1].score * 0.3 &&
      key
        .slice(chosen[0].length + 1)
        .split(' ')
        .every((word) => FORM_WORDS.has(word)),
  )
  const [key, evidence] = legal ?? chosen
  return { key, evidence }
}

/**
 * Keys that differ only in spaces are one name (`MGM R ESORTS I NTERNATIONAL`, as some PDFs
 * space small capitals, is `MGM Resorts International`): their evidence is added up.
 */
function mergedBySpelling(byKey: ReadonlyMap<string, Evidence>): Map<string, Evidence> {
  const byLetters = new Map<string, [string, Evidence]>()
  for (const [key, evidence] of byKey) {
    const letters = key.replace(/\s+/g, '')
    const known = byLetters.get(letters)
    if (!known) {
      byLetters.set(letters, [
        key,
        { score: evidence.score, counted: evidence.counted, surfaces: new Map(evidence.surfaces) },
      ])
      continue
    }
    const [knownKey, merged] = known
    merged.score += evidence.score
    for (const [surface, count] of evidence.surfaces)
      merged.surfaces.set(surface, (merged.surfaces.get(surface) ?? 0) + count)
    // The spelling with more words written apart is the broken one.
    const keep = key.split(' ').length < knownKey.split(' ').length ? key : knownKey
    byLetters.set(letters, [keep, merged])
  }
  return new Map([...byLetters.values()])
}

function wordsOf(key: string): Set<string> {
  return new Set(key.split(' '))
}

/** Whether a short name is made of words of the legal name (`American Water` of `American Water Works Company, Inc.`). */
function isShortFormOf(short: string, mainKey: string): boolean {
  const words = nameKey(short).split(' ').filter(Boolean)
  const main = wordsOf(mainKey)
  return words.length > 0 && words.every((word) => main.has(word)) && nameKey(short) !== mainKey
}

/** What the subjects are read from, beside the document's own text. */
export interface SubjectContext {
  /** The document's own title from its metadata, when meaningful. */
  readonly metadataTitle: string | null
  /** The lines that can name the document (see titleLines): a press release's headline names its subject. */
  readonly titleLines: readonly string[]
  /** Folder names of the document's path, a fallback only. */
  readonly folders: readonly string[]
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

/**
 * Who a document is by or about, most important first: the organisation's legal name (`Pfizer
 * Inc.`), the short name the document defines for it (`Pfizer`), former names (`formerly Wal-Mart
 * Stores, Inc.`), and its ticker symbols. The name is chosen from what the document's first pages
 * say (an SEC cover's registrant line, the paragraph that defines `the Company`, names with a
 * legal form on the cover and in page headers, `X and Subsidiaries`), weighed by where and how
 * often it is written; the metadata title adds weight. Precision over recall: nothing when no
 * name is clearly the subject (a manual, a paper, a letter between people). A folder name counts
 * only as a fallback, and only when the document itself writes it on its first pages.
 */
export function subjectsOf(reading: CardReading, context: SubjectContext): string[] {
  const ledger = new Ledger()
  for (const name of registrantNames(reading.cover)) ledger.add(nameKey(name), name, REGISTRANT, 'registrant')
  for (const line of reading.cover) {
    for (const name of legalNamesIn(line.text))
      ledger.addName(name, line.heading ? COVER_HEADING + COVER : COVER, 'cover')
  }
  const shortNames: { readonly short: string; readonly keys: readonly string[] }[] = []
  for (const [index, line] of reading.head.entries()) {
    const names = legalNamesIn(line.text)
    if (index >= reading.cover.length) for (const name of names) ledger.addName(name, HEAD, 'head')
    for (const name of names) {
      const after = line.text.slice(name.index + name.surface.length)
      if (AND_SUBSIDIARIES.test(after)) ledger.addName(name, SUBSIDIARIES, 'subsidiaries')
    }
    if (names.length > 0 && SELF_TERMS.test(line.text)) {
      for (const name of names) ledger.addName(name, DEFINED, 'defined')
      for (const short of shortNameCandidates(line.text)) shortNames.push({ short, keys: names.flatMap((n) => n.keys) })
    }
  }
  for (const piece of reading.sample) {
    for (const name of legalNamesIn(piece)) {
      ledger.addName(name, SAMPLE, 'sample')
      if (AND_SUBSIDIARIES.test(piece.slice(name.index + name.surface.length)))
        ledger.addName(name, SUBSIDIARIES, 'subsidiaries')
    }
  }
  if (context.metadataTitle)
    for (const name of legalNamesIn(context.metadataTitle)) ledger.addName(name, METADATA, 'metadata')
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
      if (words.some((word) => !FORM_WORDS.has(word))) ledger.add(nameKey(name), name, DATELINE, 'dateline')
    }
  }
  for (const name of headlineNames(context.titleLines)) {
    ledger.add(nameKey(name), name, HEADLINE, 'headline')
    const pattern = new RegExp(`(?<![\\p{L}\\d])${escapeRegex(name)}(?![\\p{L}\\d])`, 'giu')
    for (const line of reading.head) {
      for (const m of line.text.matchAll(pattern)) ledger.add(nameKey(name), m[0], HEAD, 'headline-head')
    }
  }

  const main = chooseMain(ledger) ?? folderSubject(reading, context.folders)
  if (!main) return []
  const mainSurface = usualSurface(main.evidence.surfaces)
  const subjects = [mainSurface]
  for (const { short, keys } of shortNames) {
    if (keys.includes(main.key) && isShortFormOf(short, main.key)) subjects.push(short)
  }
  subjects.push(...formerNames(reading, main.evidence.surfaces, ledger))
  subjects.push(...tickersOf(reading, [...main.evidence.surfaces.keys(), ...subjects]))
  const seen = new Set<string>()
  return subjects.filter((subject) => {
    const key = nameKey(subject) || subject
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Names the subject went by before: `WALMART INC. (formerly "WAL-MART STORES, INC.")`. */
function formerNames(reading: CardReading, surfaces: ReadonlyMap<string, number>, ledger: Ledger): string[] {
  const former: string[] = []
  const pattern = new RegExp(`(?:${[...surfaces.keys()].map(escapeRegex).join('|')})`, 'giu')
  const lines = [...reading.head.map((line) => line.text), ...reading.sample]
  for (const text of lines) {
    for (const m of text.matchAll(pattern)) {
      const rest = text.slice((m.index ?? 0) + m[0].length)
      const after = rest.match(FORMERLY)
      if (!after?.[1]) continue
      // A legal name right there keeps its form (`"WAL-MART STORES, INC."`), else the words up to the bracket.
      const start = (after.index ?? 0) + after[0].indexOf(after[1])
      const legal = legalNamesIn(rest.slice(start, start + 100))[0]
      const name = legal && legal.index === 0 ? legal.surface : after[1].trim()
      if (looksLikeName(name)) former.push(name)
    }
  }
  // An 8-K's cover: the line above `(Former name or former address, if changed since last report)`.
  reading.cover.forEach((line, index) => {
    if (!FORMER_NAME_LABEL.test(line.text)) return
    const above = reading.cover[index - 1]?.text ?? ''
    for (const name of legalNamesIn(above)) former.push(name.surface)
  })
  // The mixed-case form the document also writes, when it does.
  return former.map((name) => {
    const known = ledger.byKey.get(nameKey(name))
    return known ? usualSurface(known.surfaces) : name
  })
}

/** A folder named like an organisation the document writes, capitalised, on its first pages at least three times. */
function folderSubject(reading: CardReading, folders: readonly string[]): { key: string; evidence: Evidence } | null {
  const text = reading.head.map((line) => line.text).join('\n')
  for (const folder of [...folders].reverse()) {
    const name = folder.replace(/[_]+/g, ' ').trim()
    if (name.length < 3 || !/\p{L}{3}/u.test(name) || /^\d/.test(name)) continue
    const pattern = new RegExp(`(?<![\\p{L}\\d])${escapeRegex(name).replace(/\s+/g, '\\s+')}(?![\\p{L}\\d])`, 'giu')
    // Written as a name (capitalised), and more than in passing.
    const found = [...text.matchAll(pattern)].map((m) => m[0]).filter((surface) => /^[\p{Lu}\d]/u.test(surface))
    if (found.length < 3) continue
    const surfaces = new Map<string, number>()
    for (const surface of found) surfaces.set(surface, (surfaces.get(surface) ?? 0) + 1)
    return { key: nameKey(name), evidence: { score: found.length, counted: new Map(), surfaces } }
  }
  return null
}

/** Folded words of a subject, for comparing names written differently. */
export function subjectKey(subject: string): string {
  return nameKey(subject) || foldWord(subject)
}
