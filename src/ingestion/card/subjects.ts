import { escapeRegex } from '../../lib/regex.js'
import { LEGAL_FORM_WORDS } from '../../text/legal-forms.js'
import { legalNamesIn, nameKey } from './legal-names.js'
import { type Evidence, type EvidenceContext, gatherEvidence, type Ledger, looksLikeName } from './name-evidence.js'
import type { CardReading } from './reading.js'
import { tickersOf } from './tickers.js'

/** Score a name needs to be the document's subject: one strong sign, or several weaker ones. */
const SUBJECT_MIN_SCORE = 5
/** A longer form of the best name is chosen when it is nearly as well attested. */
const LONGER_FORM_SHARE = 0.8
/** The legal name of a short name chosen from a headline needs this share of its evidence. */
const LEGAL_FORM_SHARE = 0.3

const FORMERLY =
  /^\s*[,(]?\s*\(?\s*(?:formerly(?:\s+known\s+as)?|previously\s+known\s+as|f\/k\/a|anciennement|ehemals|vormals|anteriormente)\s+[“"]?([^”")\n]{3,80}?)[”"]?\s*[),;\n]/iu
const FORMER_NAME_LABEL = /^\(?\s*former\s+name\s+or\s+former\s+address/i

/** The surface most often written, in mixed case when the text has one (`Pfizer Inc.` over `PFIZER INC.`). */
function usualSurface(surfaces: ReadonlyMap<string, number>): string {
  const ranked = [...surfaces].sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)
  const mixed = ranked.find(([surface]) => surface !== surface.toUpperCase())
  return (mixed ?? ranked[0] ?? [''])[0]
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
    for (const [surface, count] of evidence.surfaces) {
      merged.surfaces.set(surface, (merged.surfaces.get(surface) ?? 0) + count)
    }
    // The spelling with more words written apart is the broken one.
    const keep = key.split(' ').length < knownKey.split(' ').length ? key : knownKey
    byLetters.set(letters, [keep, merged])
  }
  return new Map([...byLetters.values()])
}

/**
 * The best attested name, if it is attested enough; then the longest of its longer forms that is
 * nearly as well attested (`Lockheed Martin Corporation` over `Martin Corporation`), or its legal
 * name (`Amcor` from a headline → `Amcor plc`) when the document writes it.
 */
function chooseMain(ledger: Ledger): { key: string; evidence: Evidence } | null {
  const ranked = [...mergedBySpelling(ledger.byKey)].sort(
    (a, b) => b[1].score - a[1].score || b[0].length - a[0].length,
  )
  const best = ranked[0]
  if (!best || best[1].score < SUBJECT_MIN_SCORE) return null
  let chosen = best
  for (const entry of ranked) {
    if (entry[1].score < best[1].score * LONGER_FORM_SHARE) break
    if (entry[0].endsWith(` ${chosen[0]}`)) chosen = entry
  }
  const legal = ranked.find(
    ([key, evidence]) =>
      key.startsWith(`${chosen[0]} `) &&
      evidence.score >= chosen[1].score * LEGAL_FORM_SHARE &&
      key
        .slice(chosen[0].length + 1)
        .split(' ')
        .every((word) => LEGAL_FORM_WORDS.has(word)),
  )
  const [key, evidence] = legal ?? chosen
  return { key, evidence }
}

/** Whether a short name is made of words of the legal name (`American Water` of `American Water Works Company, Inc.`). */
function isShortFormOf(short: string, mainKey: string): boolean {
  const words = nameKey(short).split(' ').filter(Boolean)
  const main = new Set(mainKey.split(' '))
  return words.length > 0 && words.every((word) => main.has(word)) && nameKey(short) !== mainKey
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

/** What the subjects are read from, beside the document's own text. */
export interface SubjectContext extends EvidenceContext {
  /** Folder names of the document's path, a fallback only. */
  readonly folders: readonly string[]
}

/**
 * Who a document is by or about, most important first: the organisation's legal name (`Pfizer
 * Inc.`), the short name the document defines for it (`Pfizer`), former names (`formerly Wal-Mart
 * Stores, Inc.`), and its ticker symbols. The name is the best attested one (name-evidence.ts:
 * an SEC cover's registrant line, the paragraph that defines `the Company`, names with a legal form
 * on the cover and the first pages, `X and Subsidiaries`, a press release's dateline and headline,
 * the metadata title), weighed by where and how often it is written. Precision over recall: nothing
 * when no name is clearly the subject (a manual, a paper, a letter between people). A folder name
 * counts only as a fallback, and only when the document itself writes it on its first pages.
 */
export function subjectsOf(reading: CardReading, context: SubjectContext): string[] {
  const { ledger, shortNames } = gatherEvidence(reading, context)
  const main = chooseMain(ledger) ?? folderSubject(reading, context.folders)
  if (!main) return []
  const subjects = [usualSurface(main.evidence.surfaces)]
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
