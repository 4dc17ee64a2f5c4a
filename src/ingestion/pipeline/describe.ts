import { cleanText, oneLine } from '../../lib/whitespace.js'
import type { DocumentCard } from '../../storage/ports/document-card.js'
import { type AnalyzedToken, analyzeTokens } from '../../text/analysis.js'
import { cardSentence } from '../card/sentence.js'
import { sentences } from '../chunking/text.js'
import type { Block, ParsedDocument } from '../model.js'
import { tableText } from './table-text.js'

/** Longest generated description, in characters. */
export const MAX_DESCRIPTION_CHARS = 500

const LEAD_SENTENCES = 3
const MIN_KEY_PHRASES = 5
const MAX_KEY_PHRASES = 8
/**
 * Text read for key phrases: enough to see what a document is about, taken from all over a longer
 * one. Analysing 200,000 characters took about a fifth of a processing thread's time on the filings.
 */
const KEY_PHRASE_SAMPLE_CHARS = 60_000

const KEY_TOPICS_LABEL: Readonly<Record<string, string>> = {
  en: 'Key topics',
  fr: 'Thèmes clés',
  de: 'Schlüsselthemen',
  es: 'Temas clave',
  it: 'Temi chiave',
  pt: 'Temas principais',
  nl: 'Kernthema’s',
  da: 'Nøgleemner',
  sv: 'Nyckelämnen',
  no: 'Nøkkelemner',
  fi: 'Keskeiset aiheet',
  ru: 'Ключевые темы',
}

// Lines that say nothing about the content: page furniture, legal boilerplate, contents leaders.
const BOILERPLATE = [
  /^page \d+( (of|\/) \d+)?$/i,
  /\b(all rights reserved|tous droits réservés|alle rechte vorbehalten|todos los derechos reservados)\b/i,
  /^(©|\(c\)|copyright\b)/i,
  /\b(confidential|confidentiel|vertraulich)\b/i,
  /\.{4,}|…{2,}/,
  /^https?:\/\/\S+$/i,
]

/** A short block that is page furniture or a legal line, whatever its length in words. */
function isBoilerplate(text: string): boolean {
  const line = oneLine(text)
  return line.length < 120 && BOILERPLATE.some((pattern) => pattern.test(line))
}

/** A sentence of real prose: several words, mostly letters, not boilerplate. */
function isProse(sentence: string): boolean {
  const words = sentence.split(/\s+/).filter((word) => /\p{L}/u.test(word))
  if (words.length < 5) return false
  const letters = sentence.match(/\p{L}/gu)?.length ?? 0
  if (letters < sentence.length * 0.6) return false
  // Capitals throughout are a heading or a form's banner, not prose.
  const capitals = sentence.match(/\p{Lu}/gu)?.length ?? 0
  if (capitals > letters * 0.5) return false
  return !BOILERPLATE.some((pattern) => pattern.test(sentence))
}

/** The first prose sentences of the document's paragraphs (never headings, tables or OCR'd images). */
function leadSentences(parsed: ParsedDocument, title: string): string[] {
  const lead: string[] = []
  for (const block of parsed.blocks) {
    if (block.kind !== 'paragraph') continue
    for (const sentence of sentences(cleanText(block.text).replace(/\n/g, ' '))) {
      if (!isProse(sentence) || sentence === title) continue
      lead.push(sentence)
      if (lead.length === LEAD_SENTENCES) return lead
    }
  }
  return lead
}

/** Characters of a block's text, without building it. */
function blockChars(block: Block): number {
  if (block.kind !== 'table') return block.text.length
  let chars = 0
  for (const row of block.rows) for (const cell of row.cells) chars += cell.length + 1
  return chars
}

/**
 * The text of the blocks in order, as separate pieces, up to `limit` characters: every block of a
 * short document, every k-th of a longer one, so the sample covers all of it rather than its start.
 */
function textPieces(parsed: ParsedDocument, limit: number): string[] {
  let total = 0
  for (const block of parsed.blocks) total += blockChars(block)
  const stride = Math.max(1, Math.ceil(total / limit))
  const pieces: string[] = []
  let used = 0
  for (const [index, block] of parsed.blocks.entries()) {
    if (index % stride !== 0) continue
    const text =
      block.kind === 'table'
        ? tableText(block, { cellSeparator: ' \n ', withHeader: true, limit: limit - used })
        : block.text
    if (!text.trim() || (block.kind !== 'table' && isBoilerplate(text))) continue
    pieces.push(text)
    used += text.length
    if (used >= limit) break
  }
  return pieces
}

interface Candidate {
  readonly key: string
  score: number
  count: number
  /** How often each written form occurs, to show the usual one. */
  readonly surfaces: Map<string, number>
}

function note(candidates: Map<string, Candidate>, key: string, surface: string, weight: number): void {
  let candidate = candidates.get(key)
  if (!candidate) {
    candidate = { key, score: 0, count: 0, surfaces: new Map() }
    candidates.set(key, candidate)
  }
  candidate.count++
  candidate.score += weight
  candidate.surfaces.set(surface, (candidate.surfaces.get(surface) ?? 0) + 1)
}

function usualSurface(candidate: Candidate): string {
  const [best = candidate.key] = [...candidate.surfaces]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([surface]) => surface)
  const lower = best.toLowerCase()
  // A capital from a sentence start or a heading is noise when the word also occurs in lower case;
  // acronyms (all capitals) and names (never in lower case) keep theirs.
  return best !== lower && best !== best.toUpperCase() && candidate.surfaces.has(lower) ? lower : best
}

/**
 * Function words the search stop lists keep (they can matter in a query, "price per share") but
 * that never name a topic on their own.
 */
const NOT_A_TOPIC = new Set(['per', 'via', 'etc', 'also', 'may', 'shall', 'will', 'upon', 'within', 'without', 'vs'])

const usefulTerm = (token: AnalyzedToken): boolean =>
  token.term.length >= 3 &&
  !/^[\p{N}.,]+$/u.test(token.term) &&
  /\p{L}/u.test(token.surface) &&
  !NOT_A_TOPIC.has(token.surface.toLowerCase())

/**
 * Key phrases of a document: single terms and two-word phrases (adjacent, no stop word between)
 * scored by frequency weighted with a within-document inverse frequency over its pieces of text,
 * so words on every page (headers, footers) count less than words that mark a topic.
 */
export function keyPhrases(pieces: readonly string[], language: string, max = MAX_KEY_PHRASES): string[] {
  const perPiece = pieces.map((piece) => analyzeTokens(piece, language).filter(usefulTerm))
  const spread = new Map<string, number>()
  for (const tokens of perPiece)
    for (const term of new Set(tokens.map((token) => token.term))) {
      spread.set(term, (spread.get(term) ?? 0) + 1)
    }
  const total = Math.max(1, pieces.length)
  const idf = (term: string) => Math.log(1 + total / (spread.get(term) ?? 1))
  const singles = new Map<string, Candidate>()
  const pairs = new Map<string, Candidate>()
  for (const tokens of perPiece) {
    tokens.forEach((token, index) => {
      note(singles, token.term, token.surface, idf(token.term))
      const next = tokens[index + 1]
      if (next && next.position === token.position + 1 && next.term !== token.term) {
        note(
          pairs,
          `${token.term} ${next.term}`,
          `${token.surface} ${next.surface}`,
          (idf(token.term) + idf(next.term)) / 2,
        )
      }
    })
  }
  // A phrase counts only when it recurs; it then outranks its words a little.
  const ranked = [
    ...[...pairs.values()].filter((pair) => pair.count >= 2).map((pair) => ({ ...pair, score: pair.score * 1.5 })),
    ...singles.values(),
  ].sort((a, b) => b.score - a.score || a.key.localeCompare(b.key))
  const chosen: string[] = []
  const coveredTerms = new Set<string>()
  for (const candidate of ranked) {
    const terms = candidate.key.split(' ')
    if (terms.every((term) => coveredTerms.has(term))) continue
    chosen.push(usualSurface(candidate))
    for (const term of terms) coveredTerms.add(term)
    if (chosen.length === max) break
  }
  return chosen
}

function endSentence(text: string): string {
  return /[.!?…:;]$/.test(text) ? text : `${text}.`
}

/** `text` cut to `max` characters at a word boundary, with an ellipsis when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, Math.max(0, max - 1))
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`
}

/** The card's sentence as a description opens with it. */
function aboutSentence(card: DocumentCard, language: string): string {
  return clip(cardSentence(card, language) ?? '', MAX_ABOUT_CHARS)
}

/** Longest card sentence a description opens with. */
const MAX_ABOUT_CHARS = 250

/**
 * A generated description after its document's card was corrected: its opening sentence, made
 * from the old card, made again from the new one (the rest, read from the text, still holds). A
 * description that does not open with the old card's sentence (written before cards, or by
 * hand) gets the new sentence in front. Within MAX_DESCRIPTION_CHARS.
 */
export function withCardSentence(
  description: string,
  previous: DocumentCard | null,
  card: DocumentCard,
  language: string,
): string {
  const old = previous ? aboutSentence(previous, language) : ''
  const rest = old !== '' && description.startsWith(old) ? description.slice(old.length).trimStart() : description
  const about = aboutSentence(card, language)
  return clip([about, rest].filter(Boolean).join(' '), MAX_DESCRIPTION_CHARS).trim()
}

/**
 * An offline description of a parsed document, at most MAX_DESCRIPTION_CHARS characters: the
 * sentence its card makes (what kind of document, whose, for which period: cardSentence), its
 * title (the card's, else the document's own, else its first heading), its first two or three
 * sentences of real prose (boilerplate skipped), and five to eight key phrases in their written
 * form, introduced in the document's language. Null when the document has no text at all.
 */
export function describeDocument(parsed: ParsedDocument, language: string, card?: DocumentCard): string | null {
  const pieces = textPieces(parsed, KEY_PHRASE_SAMPLE_CHARS)
  if (pieces.length === 0) return null
  const firstHeading = parsed.blocks.find((block) => block.kind === 'heading')
  const title = oneLine(card?.title || parsed.title || (firstHeading?.kind === 'heading' ? firstHeading.text : ''))
  const lead = leadSentences(parsed, title).map(endSentence).join(' ')
  const phrases = keyPhrases(pieces, language)
  const label = KEY_TOPICS_LABEL[language] ?? KEY_TOPICS_LABEL.en
  const topics = (count: number) => (count > 0 ? `${label}: ${phrases.slice(0, count).join(', ')}.` : '')

  const about = card ? aboutSentence(card, language) : ''
  const head = title ? endSentence(clip(title, 150)) : ''
  // The lead gets what the card's sentence, the title and the first MIN_KEY_PHRASES phrases leave.
  const leadRoom =
    MAX_DESCRIPTION_CHARS -
    (about ? about.length + 1 : 0) -
    head.length -
    topics(Math.min(MIN_KEY_PHRASES, phrases.length)).length -
    2
  const leadText = lead && leadRoom > 20 ? clip(lead, leadRoom) : ''
  const opening = [about, head, leadText].filter(Boolean).join(' ')
  let count = phrases.length
  while (count > 0 && opening.length + 1 + topics(count).length > MAX_DESCRIPTION_CHARS) count--
  const description = [opening, topics(count)].filter(Boolean).join(' ')
  const result = clip(description, MAX_DESCRIPTION_CHARS).trim()
  return result || null
}
