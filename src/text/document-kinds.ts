import { baseLanguage } from './languages.js'

/**
 * The kinds of document a card can name, in plain English words, and the words people use to
 * name each kind in a question. The card (src/ingestion/card/kind.ts) reads a document's kind from
 * its own text; answering reads the kinds a question names to prefer those documents.
 */
export const DOCUMENT_KINDS = [
  'annual report',
  'quarterly report',
  'interim report',
  'current report',
  'earnings release',
  'press release',
  'proxy statement',
  'invoice',
  'receipt',
  'purchase order',
  'quotation',
  'contract',
  'policy',
  'procedure',
  'minutes',
  'agenda',
  'memo',
  'letter',
  'email',
  'presentation',
  'manual',
  'research paper',
  'resume',
] as const

export type DocumentKind = (typeof DOCUMENT_KINDS)[number]

type Names = Readonly<Partial<Record<DocumentKind, RegExp>>>

/** Filing form numbers are the same in every language. */
const FORMS: Names = {
  'annual report': /(?<![\p{L}\d-])(?:10-?K|20-?F|40-?F)(?![\p{L}\d])/u,
  'quarterly report': /(?<![\p{L}\d-])10-?Q(?![\p{L}\d])/u,
  'current report': /(?<![\p{L}\d-])(?:8-?K|6-?K)(?![\p{L}\d])/u,
  'proxy statement': /\bDEF\s*14A\b/,
}

const NAMES: { readonly en: Names; readonly fr: Names; readonly de: Names; readonly es: Names } = {
  en: {
    'annual report': /\bannual\s+(?:reports?|filings?|financial\s+statements)\b/iu,
    'quarterly report': /\bquarterly\s+(?:reports?|filings?|financial\s+statements)\b/iu,
    'interim report': /\b(?:interim|half[\s-]year(?:ly)?|semi[\s-]annual)\s+(?:financial\s+)?reports?\b/iu,
    'current report': /\bcurrent\s+reports?\b/iu,
    'earnings release': /\b(?:earnings|results)\s+(?:releases?|reports?|announcements?|press\s+releases?)\b/iu,
    'press release': /\b(?:press|news)\s+releases?\b/iu,
    'proxy statement': /\bproxy(?:\s+statements?)?\b/iu,
    invoice: /\binvoices?\b/iu,
    receipt: /\breceipts?\b(?!\s+of\b)/iu,
    'purchase order': /\bpurchase\s+orders?\b/iu,
    quotation: /\b(?:quotations?|price\s+quotes?)\b/iu,
    contract: /\b(?:contracts?|agreements?)\b/iu,
    policy: /\bpolic(?:y|ies)\b/iu,
    procedure: /\b(?:procedures?|SOPs?)\b/u,
    minutes: /(?<!\d\s?)\bminutes\b/iu,
    agenda: /\bagendas?\b/iu,
    memo: /\bmemo(?:randum|randa|s)?\b/iu,
    letter: /\bletters?\b(?!\s+of\s+(?:credit|intent))/iu,
    email: /\b(?:e-?mails?|messages?)\b/iu,
    presentation: /\b(?:presentations?|slides?|slide\s+decks?|decks?)\b/iu,
    manual: /\b(?:manuals?|user\s+guides?|handbooks?|guides?)\b/iu,
    'research paper': /\b(?:papers?|research\s+articles?|articles?|studies|study|publications?)\b/iu,
    resume: /\b(?:CVs?|curriculum\s+vitae|r[ée]sum[ée]s?)\b/u,
  },
  fr: {
    'annual report': /\brapports?\s+(?:financiers?\s+)?annuels?\b|\bdocument\s+d['’]enregistrement\s+universel\b/iu,
    'quarterly report': /\brapports?\s+(?:financiers?\s+)?trimestriels?\b/iu,
    'interim report': /\brapports?\s+(?:financiers?\s+)?semestriels?\b/iu,
    'earnings release': /\bcommuniqu[ée]s?\s+(?:de\s+presse\s+)?(?:sur\s+les\s+|des\s+)r[ée]sultats\b/iu,
    'press release': /\bcommuniqu[ée]s?\s+de\s+presse\b/iu,
    invoice: /\bfactures?\b/iu,
    receipt: /\b(?:re[çc]us?|tickets?\s+de\s+caisse)\b/iu,
    'purchase order': /\bbons?\s+de\s+commande\b/iu,
    quotation: /\bdevis\b/iu,
    contract: /\b(?:contrats?|conventions?)\b/iu,
    policy: /\b(?:politiques?|chartes?)\b/iu,
    procedure: /\bproc[ée]dures?\b/iu,
    minutes: /\b(?:proc[èe]s[\s-]verba(?:l|ux)|comptes?[\s-]rendus?)\b/iu,
    agenda: /\bordres?\s+du\s+jour\b/iu,
    memo: /\b(?:notes?\s+de\s+service|m[ée]mos?)\b/iu,
    letter: /\b(?:lettres?|courriers?)\b/iu,
    email: /\b(?:e-?mails?|courriels?|messages?)\b/iu,
    presentation: /\b(?:pr[ée]sentations?|diapositives?)\b/iu,
    manual: /\b(?:manuels?|guides?|modes?\s+d['’]emploi)\b/iu,
    'research paper': /\b(?:articles?(?:\s+scientifiques?)?|[ée]tudes?|publications?)\b/iu,
    resume: /\bCVs?\b/u,
  },
  de: {
    'annual report': /(?:jahres|gesch[äa]fts)(?:finanz)?berichte?s?\b/iu,
    'quarterly report': /quartals(?:bericht|mitteilung)(?:e|s|en)?\b/iu,
    'interim report': /(?:halbjahres(?:finanz)?|zwischen)berichte?s?\b/iu,
    'earnings release': /\bergebnis(?:presse)?mitteilung(?:en)?\b/iu,
    'press release': /\bpressemitteilung(?:en)?\b/iu,
    invoice: /\brechnung(?:en)?\b/iu,
    receipt: /\b(?:quittung(?:en)?|kassenbons?|belege?)\b/iu,
    'purchase order': /\bbestellung(?:en)?\b/iu,
    quotation: /\bangebote?\b/iu,
    contract: /\bvertr[äa]ge?s?\b|\bvereinbarung(?:en)?\b/iu,
    policy: /\b(?:richtlinien?|leitlinien?)\b/iu,
    procedure: /\b(?:verfahrens|arbeits)anweisung(?:en)?\b/iu,
    minutes: /\bprotokoll(?:e|s)?\b/iu,
    agenda: /\btagesordnung(?:en)?\b/iu,
    memo: /\b(?:aktennotiz(?:en)?|hausmitteilung(?:en)?|memos?)\b/iu,
    letter: /\b(?:briefe?s?|schreiben)\b/iu,
    email: /\b(?:e-?mails?|nachrichten?)\b/iu,
    presentation: /\b(?:pr[äa]sentation(?:en)?|folien)\b/iu,
    manual: /\b(?:handb[üu]ch(?:er)?|handbuch|anleitung(?:en)?)\b/iu,
    'research paper': /\b(?:artikel|studien?|ver[öo]ffentlichung(?:en)?)\b/iu,
    resume: /\b(?:lebensl[äa]ufe?|lebenslauf|CVs?)\b/iu,
  },
  es: {
    'annual report': /\b(?:informes?\s+(?:financieros?\s+)?anual(?:es)?|memorias?\s+anual(?:es)?)\b/iu,
    'quarterly report': /\binformes?\s+(?:financieros?\s+)?trimestral(?:es)?\b/iu,
    'interim report': /\binformes?\s+(?:financieros?\s+)?semestral(?:es)?\b/iu,
    'earnings release': /\bcomunicados?\s+de\s+resultados\b/iu,
    'press release': /\b(?:comunicados?|notas?)\s+de\s+prensa\b/iu,
    invoice: /\bfacturas?\b/iu,
    receipt: /\brecibos?\b/iu,
    'purchase order': /\b[óo]rden(?:es)?\s+de\s+compra\b/iu,
    quotation: /\b(?:presupuestos?|cotizaci[óo]n(?:es)?)\b/iu,
    contract: /\b(?:contratos?|convenios?)\b/iu,
    policy: /\bpol[íi]ticas?\b/iu,
    procedure: /\bprocedimientos?\b/iu,
    minutes: /\bactas?\b/iu,
    agenda: /\b[óo]rden(?:es)?\s+del\s+d[íi]a\b/iu,
    memo: /\bmemor[áa]nd(?:um|ums|a)\b/iu,
    letter: /\bcartas?\b/iu,
    email: /\b(?:correos?(?:\s+electr[óo]nicos?)?|e-?mails?|mensajes?)\b/iu,
    presentation: /\b(?:presentaci[óo]n(?:es)?|diapositivas?)\b/iu,
    manual: /\b(?:manual(?:es)?|gu[íi]as?)\b/iu,
    'research paper': /\b(?:art[íi]culos?|estudios?|publicaci[óo]n(?:es)?)\b/iu,
    resume: /\b(?:CVs?|curr[íi]culums?|curr[íi]culum\s+vitae)\b/iu,
  },
}

/**
 * The kinds of document a question names (`the 10-K` → annual report, `quarterly report`,
 * `invoice`, `minutes of`), in the order of DOCUMENT_KINDS, from the words of its language and the
 * English ones (questions in any language use `10-K` or `PDF`). A hint to prefer documents of
 * those kinds, not a filter: `policy` may be a document or a topic (`dividend policy`).
 */
export function kindsNamedIn(question: string, language: string): DocumentKind[] {
  const code = baseLanguage(language)
  const own = code === 'fr' || code === 'de' || code === 'es' ? [NAMES[code]] : []
  const vocabularies = [FORMS, NAMES.en, ...own]
  return DOCUMENT_KINDS.filter((kind) => vocabularies.some((names) => names[kind]?.test(question)))
}
