import type { DocumentKind } from '../../text/document-kinds.js'
import type { CardReading } from './reading.js'

/**
 * Where a cue is looked for: `title` in the lines that name a document (its metadata title, the
 * cover's headings, its first short lines), `line` at the start of any cover line (`FORM 10-K`),
 * `text` anywhere on the cover.
 */
type Where = 'title' | 'line' | 'text'

interface Cue {
  readonly kind: DocumentKind
  readonly where: Where
  readonly pattern: RegExp
  readonly weight: number
  /** A `line` cue that is also the document's name (`FORM 10-K`), unlike a letter's `Dear` or a paper's `Abstract`. */
  readonly names?: boolean
}

/** A kind needs this much: one strong cue (a title, a form name) or several weaker ones. */
const KIND_MIN_SCORE = 4
/** Lines from the top of the cover that can be its title. */
const TITLE_LINES = 4
/** Cover headings that can be its title. */
const TITLE_HEADINGS = 8
const TITLE_MAX_CHARS = 160
/** A copyright line names an owner and years, not the document. */
const LEGAL_LINE = /^(?:©|\(c\)|copyright\b)|\ball\s+rights\s+reserved\b/i

const CUES: readonly Cue[] = [
  // SEC forms: the form's name heads the cover; its checked box says the same in words.
  { kind: 'annual report', where: 'line', pattern: /^FORM\s+(?:10-?K|20-?F|40-?F)(?:\/A)?\b/i, weight: 6, names: true },
  { kind: 'quarterly report', where: 'line', pattern: /^FORM\s+10-?Q(?:\/A)?\b/i, weight: 6, names: true },
  { kind: 'current report', where: 'line', pattern: /^FORM\s+(?:8-?K|6-?K)(?:\/A)?\b/i, weight: 6, names: true },
  { kind: 'proxy statement', where: 'line', pattern: /^SCHEDULE\s+14A\b/i, weight: 5, names: true },
  { kind: 'annual report', where: 'text', pattern: /\bannual\s+report\s+pursuant\s+to\s+section\s+13\b/i, weight: 4 },
  {
    kind: 'quarterly report',
    where: 'text',
    pattern: /\bquarterly\s+report\s+pursuant\s+to\s+section\s+13\b/i,
    weight: 4,
  },
  { kind: 'current report', where: 'text', pattern: /\bcurrent\s+report\s+pursuant\s+to\s+section\s+13\b/i, weight: 4 },
  {
    kind: 'annual report',
    where: 'title',
    pattern:
      /\bannual\s+report\b|\brapport\s+(?:financier\s+)?annuel\b|\bdocument\s+d['’]enregistrement\s+universel\b|gesch[äa]ftsbericht|jahres(?:finanz)?bericht|\binforme\s+(?:financiero\s+)?anual\b|\bmemoria\s+anual\b/i,
    weight: 4,
  },
  {
    kind: 'quarterly report',
    where: 'title',
    pattern:
      /\bquarterly\s+report\b|\brapport\s+(?:financier\s+)?trimestriel\b|quartals(?:bericht|mitteilung)|\binforme\s+trimestral\b/i,
    weight: 4,
  },
  {
    kind: 'interim report',
    where: 'title',
    pattern:
      /\binterim\s+report\b|\bhalf[\s-]year(?:ly)?\s+(?:financial\s+)?report\b|\bsemi[\s-]annual\s+report\b|\brapport\s+(?:financier\s+)?semestriel\b|halbjahres(?:finanz)?bericht|zwischenbericht|\binforme\s+(?:financiero\s+)?semestral\b/i,
    weight: 4,
  },
  // Earnings: a headline that reports results, or the dateline's `today reported … results`.
  {
    kind: 'earnings release',
    where: 'title',
    pattern:
      /\b(?:reports?|announces?|posts?|delivers?|releases?)\b.{0,90}\b(?:results|earnings)\b|\bpublie\s+ses\s+r[ée]sultats\b|\bpresenta\s+(?:sus\s+)?resultados\b|\bver[öo]ffentlicht\b.{0,60}\bergebnis/i,
    weight: 5,
  },
  {
    kind: 'earnings release',
    where: 'text',
    pattern: /\btoday\s+(?:reported|announced|released)\s+(?:its\s+)?(?:[\w-]+\s+){0,5}(?:results|earnings)\b/i,
    weight: 4,
  },
  {
    kind: 'press release',
    where: 'title',
    pattern:
      /\b(?:press|news)\s+release\b|\bfor\s+immediate\s+release\b|\bcommuniqu[ée]\s+de\s+presse\b|\bpressemitteilung\b|\b(?:comunicado|nota)\s+de\s+prensa\b/i,
    weight: 4,
  },
  { kind: 'press release', where: 'text', pattern: /\btoday\s+announced\b/i, weight: 2 },
  {
    kind: 'proxy statement',
    where: 'title',
    pattern: /\bproxy\s+statement\b|\bnotice\s+of\s+(?:the\s+)?annual\s+(?:general\s+)?meeting\b/i,
    weight: 4,
  },
  {
    kind: 'invoice',
    where: 'title',
    pattern: /\b(?:tax\s+)?invoice\b|\bfacture\b|\brechnung\b|\bfactura\b/i,
    weight: 4,
  },
  {
    kind: 'invoice',
    where: 'text',
    pattern:
      /\binvoice\s+(?:no\.?|number|#|date)|\bbill\s+to\b|\b(?:amount|total|balance)\s+due\b|\bnum[ée]ro\s+de\s+facture\b|\brechnungs(?:nummer|datum)\b|\bn[úu]mero\s+de\s+factura\b/i,
    weight: 2,
  },
  {
    kind: 'receipt',
    where: 'title',
    pattern: /\breceipt\b|\bre[çc]u\b|\bticket\s+de\s+caisse\b|\bquittung\b|\bkassenbon\b|\brecibo\b/i,
    weight: 4,
  },
  {
    kind: 'purchase order',
    where: 'title',
    pattern: /\bpurchase\s+order\b|\bbon\s+de\s+commande\b|\bbestellung\b|\borden\s+de\s+compra\b/i,
    weight: 5,
  },
  {
    kind: 'quotation',
    where: 'title',
    pattern: /\bquotation\b|\bprice\s+quote\b|\bdevis\b|\bangebot\b|\bpresupuesto\b|\bcotizaci[óo]n\b/i,
    weight: 4,
  },
  {
    kind: 'contract',
    where: 'title',
    pattern: /\bagreement\b|\bcontract\b|\bcontrat\b|\bvertrag\b|\bvereinbarung\b|\bcontrato\b|\bconvenio\b/i,
    weight: 4,
  },
  {
    kind: 'contract',
    where: 'text',
    pattern:
      /\bby\s+and\s+between\b|\bthis\s+agreement\s+is\s+(?:made|entered)\b|\bIN\s+WITNESS\s+WHEREOF\b|\bentre\s+les\s+soussign[ée]s\b|\bwird\s+folgender\s+vertrag\b/i,
    weight: 2,
  },
  {
    kind: 'policy',
    where: 'title',
    pattern: /\bpolicy\b|\bpolitique\b|\bcharte\b|\brichtlinie\b|\bpol[íi]tica\b/i,
    weight: 4,
  },
  {
    kind: 'policy',
    where: 'text',
    pattern: /\bthis\s+policy\s+(?:applies|sets\s+out|describes|establishes|defines)\b/i,
    weight: 2,
  },
  {
    kind: 'procedure',
    where: 'title',
    pattern:
      /\bprocedure\b|\bstandard\s+operating\s+procedure\b|\bSOP\b|\bproc[ée]dure\b|verfahrensanweisung|arbeitsanweisung|\bprocedimiento\b/i,
    weight: 4,
  },
  {
    kind: 'minutes',
    where: 'title',
    pattern: /\bminutes\b|\bproc[èe]s[\s-]verbal\b|\bcompte[\s-]rendu\b|\bprotokoll\b|\bacta\b/i,
    weight: 5,
  },
  {
    kind: 'minutes',
    where: 'text',
    pattern:
      /\bcalled\s+to\s+order\b|\bmotion\s+(?:carried|passed|seconded)\b|\bmeeting\s+(?:was\s+)?adjourned\b|\bs[ée]ance\s+(?:est\s+)?lev[ée]e\b|\bse\s+levanta\s+la\s+sesi[óo]n\b/i,
    weight: 2,
  },
  {
    kind: 'minutes',
    where: 'line',
    pattern: /^(?:present|attendees|in\s+attendance|apologies|absent|pr[ée]sents|anwesend|asistentes)\s*:/i,
    weight: 1,
  },
  {
    kind: 'agenda',
    where: 'title',
    pattern: /\bagenda\b|\bordre\s+du\s+jour\b|\btagesordnung\b|\borden\s+del\s+d[íi]a\b/i,
    weight: 5,
  },
  {
    kind: 'memo',
    where: 'title',
    pattern: /\bmemorandum\b|\bmemo\b|\bnote\s+de\s+service\b|\baktennotiz\b|\bhausmitteilung\b|\bmemor[áa]ndum\b/i,
    weight: 5,
  },
  { kind: 'memo', where: 'line', pattern: /^(?:to|from|subject|re|cc)\s*:/i, weight: 1 },
  {
    kind: 'letter',
    where: 'line',
    pattern:
      /^(?:dear|to\s+whom\s+it\s+may\s+concern|cher|ch[èe]re|madame|monsieur|sehr\s+geehrte|liebe[rs]?|estimad[oa]s?|querid[oa]s?|a\s+quien\s+corresponda)\b/i,
    weight: 3,
  },
  {
    kind: 'letter',
    where: 'text',
    pattern:
      /\b(?:yours\s+(?:sincerely|faithfully|truly)|sincerely(?:\s+yours)?,|best\s+regards|kind\s+regards|cordialement|salutations\s+distingu[ée]es|mit\s+freundlichen\s+gr[üu](?:ß|ss)en|atentamente|saludos\s+cordiales)\b/i,
    weight: 2,
  },
  {
    kind: 'manual',
    where: 'title',
    pattern:
      /\b(?:user|owner['’]?s|installation|reference|operator['’]?s|operating|service|instruction|administrator['’]?s?|programmer['’]?s?)\s+(?:manual|guide)\b|\bhandbook\b|\bmanual\b|\bmode\s+d['’]emploi\b|\bguide\s+d['’]utilisation\b|\bmanuel\b|bedienungsanleitung|benutzerhandbuch|\bhandbuch\b|gebrauchsanweisung|\bmanual\s+de\s+(?:usuario|instrucciones)\b/i,
    weight: 4,
  },
  {
    kind: 'presentation',
    where: 'title',
    pattern: /\bpresentation\b|\bpr[ée]sentation\b|\bpr[äa]sentation\b|\bpresentaci[óo]n\b/i,
    weight: 2,
  },
  {
    kind: 'research paper',
    where: 'line',
    pattern: /^(?:abstract|r[ée]sum[ée]|zusammenfassung|resumen)\b\s*[.:—-]?/i,
    weight: 3,
  },
  {
    kind: 'research paper',
    where: 'line',
    pattern: /^(?:\d\.?\s*)?(?:introduction|einleitung|introducci[óo]n)\s*$/i,
    weight: 1,
  },
  {
    kind: 'research paper',
    where: 'text',
    pattern: /\bet\s+al\.|\bdoi:\s*10\.|\barxiv:|\bkeywords\s*[:—]|\bmots[\s-]cl[ée]s\s*:/i,
    weight: 1,
  },
  {
    kind: 'research paper',
    where: 'text',
    pattern: /\buniversit(?:y|[ée]|[äa]t|ad)\b|\binstitut(?:e|o)?\s+(?:of|for|de|f[üu]r)\b/i,
    weight: 1,
  },
  {
    kind: 'resume',
    where: 'title',
    pattern: /\bcurriculum\s+vitae\b|\bresume\b|\blebenslauf\b|\bcurr[íi]culum\b/i,
    weight: 5,
  },
  {
    kind: 'resume',
    where: 'line',
    pattern:
      /^(?:(?:work|professional)\s+experience|experience|education|skills|employment\s+history|exp[ée]rience\s+professionnelle|formation|comp[ée]tences|berufserfahrung|ausbildung|kenntnisse|experiencia(?:\s+profesional)?|educaci[óo]n|formaci[óo]n|habilidades)\s*:?\s*$/i,
    weight: 2,
  },
]

/** File types whose kind the type says. */
const KIND_OF_TYPE: readonly [RegExp, DocumentKind][] = [
  [/presentation|powerpoint|opendocument\.presentation/i, 'presentation'],
  [/^message\/rfc822$|ms-outlook/i, 'email'],
]

/** Kinds that are a narrower case of another: [narrow, broad]. */
const REFINES: readonly [DocumentKind, DocumentKind][] = [['earnings release', 'press release']]

/** What the kind is read from, beside the document's own text. */
export interface KindContext {
  readonly metadataTitle: string | null
  readonly mimeType: string | undefined
  readonly filename: string
}

/** The lines that can name a document: its metadata title, the cover's headings, its first short lines. */
export function titleLines(reading: CardReading, metadataTitle: string | null): string[] {
  const headings = reading.cover.filter((line) => line.heading).slice(0, TITLE_HEADINGS)
  const first = reading.cover.filter((line) => !line.table).slice(0, TITLE_LINES)
  const lines = [
    ...(metadataTitle ? [metadataTitle] : []),
    ...headings.map((line) => line.text),
    ...first.map((l) => l.text),
  ]
  return [...new Set(lines)].filter((line) => line.length <= TITLE_MAX_CHARS && !LEGAL_LINE.test(line))
}

/**
 * A document's kind, read from its cover: each kind's cues (a title naming it, an SEC form's name
 * at the head of a line, tell-tale phrases such as `bill to` or `called to order`) add their weight,
 * once per cue; the kind with the most wins if it reaches KIND_MIN_SCORE. A presentation or an
 * e-mail is known from its file type. The file name is a fallback only (`minutes-2023-05.docx`).
 * Null when nothing says.
 */
export function kindOf(reading: CardReading, context: KindContext): DocumentKind | null {
  const titles = titleLines(reading, context.metadataTitle)
  const coverText = reading.cover.map((line) => line.text).join('\n')
  const scores = new Map<DocumentKind, number>()
  for (const [pattern, kind] of KIND_OF_TYPE)
    if (context.mimeType && pattern.test(context.mimeType)) scores.set(kind, 6)
  for (const cue of CUES) {
    const found =
      cue.where === 'title'
        ? titles.some((line) => cue.pattern.test(line))
        : cue.where === 'line'
          ? reading.cover.filter((line) => cue.pattern.test(line.text)).length
          : cue.pattern.test(coverText)
    const times = typeof found === 'number' ? Math.min(found, 3) : found ? 1 : 0
    if (times > 0) scores.set(cue.kind, (scores.get(cue.kind) ?? 0) + cue.weight * times)
  }
  // An earnings release is a press release about results: what says `press release` counts for it too.
  for (const [narrow, broad] of REFINES) {
    const own = scores.get(narrow)
    if (own) scores.set(narrow, own + (scores.get(broad) ?? 0))
  }
  const [best] = [...scores].sort((a, b) => b[1] - a[1])
  if (best && best[1] >= KIND_MIN_SCORE) return best[0]
  return kindFromFilename(context.filename)
}

const FILENAME_KINDS: readonly [RegExp, DocumentKind][] = [
  [/(?<![a-z\d])10-?k(?![a-z\d])|annual[\s_-]?report/i, 'annual report'],
  [/(?<![a-z\d])10-?q(?![a-z\d])|quarterly[\s_-]?report/i, 'quarterly report'],
  [/(?<![a-z\d])8-?k(?![a-z\d])/i, 'current report'],
  [/invoice|facture|rechnung|factura/i, 'invoice'],
  [/minutes|proc[eè]s[\s_-]?verbal|protokoll/i, 'minutes'],
  [/agenda/i, 'agenda'],
  [/policy|politique|richtlinie/i, 'policy'],
  [/contract|agreement|contrat|vertrag/i, 'contract'],
  [/(?<![a-z])(?:cv|resume|lebenslauf)(?![a-z])/i, 'resume'],
]

function kindFromFilename(filename: string): DocumentKind | null {
  const found = FILENAME_KINDS.find(([pattern]) => pattern.test(filename))
  return found ? found[1] : null
}

/** Whether a line names the kind (`FORM 10-Q` for a quarterly report): a title cue of that kind matches it. */
export function namesKind(kind: DocumentKind, line: string): boolean {
  return CUES.some((cue) => cue.kind === kind && (cue.where === 'title' || cue.names) && cue.pattern.test(line.trim()))
}
