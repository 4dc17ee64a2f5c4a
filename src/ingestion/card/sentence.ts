import type { DocumentCard } from '../../storage/ports/document-card.js'
import type { DocumentKind } from '../../text/document-kinds.js'
import { baseLanguage } from '../../text/languages.js'

const TICKER = /^[A-Z]{1,5}(?:[.-][A-Z]{1,2})?$/

type Kinds = Readonly<Record<DocumentKind, string>>

const KINDS: { readonly fr: Kinds; readonly de: Kinds; readonly es: Kinds } = {
  fr: {
    'annual report': 'Rapport annuel',
    'quarterly report': 'Rapport trimestriel',
    'interim report': 'Rapport semestriel',
    'current report': 'Rapport courant',
    'earnings release': 'Communiqué de résultats',
    'press release': 'Communiqué de presse',
    'proxy statement': 'Circulaire de procuration',
    invoice: 'Facture',
    receipt: 'Reçu',
    'purchase order': 'Bon de commande',
    quotation: 'Devis',
    contract: 'Contrat',
    policy: 'Politique',
    procedure: 'Procédure',
    minutes: 'Procès-verbal',
    agenda: 'Ordre du jour',
    memo: 'Note de service',
    letter: 'Lettre',
    email: 'Courriel',
    presentation: 'Présentation',
    manual: 'Manuel',
    'research paper': 'Article de recherche',
    resume: 'CV',
  },
  de: {
    'annual report': 'Jahresbericht',
    'quarterly report': 'Quartalsbericht',
    'interim report': 'Halbjahresbericht',
    'current report': 'Aktueller Bericht',
    'earnings release': 'Ergebnismitteilung',
    'press release': 'Pressemitteilung',
    'proxy statement': 'Vollmachtsunterlage',
    invoice: 'Rechnung',
    receipt: 'Quittung',
    'purchase order': 'Bestellung',
    quotation: 'Angebot',
    contract: 'Vertrag',
    policy: 'Richtlinie',
    procedure: 'Verfahrensanweisung',
    minutes: 'Protokoll',
    agenda: 'Tagesordnung',
    memo: 'Aktennotiz',
    letter: 'Brief',
    email: 'E-Mail',
    presentation: 'Präsentation',
    manual: 'Handbuch',
    'research paper': 'Forschungsartikel',
    resume: 'Lebenslauf',
  },
  es: {
    'annual report': 'Informe anual',
    'quarterly report': 'Informe trimestral',
    'interim report': 'Informe semestral',
    'current report': 'Informe de hechos relevantes',
    'earnings release': 'Comunicado de resultados',
    'press release': 'Comunicado de prensa',
    'proxy statement': 'Declaración de representación',
    invoice: 'Factura',
    receipt: 'Recibo',
    'purchase order': 'Orden de compra',
    quotation: 'Presupuesto',
    contract: 'Contrato',
    policy: 'Política',
    procedure: 'Procedimiento',
    minutes: 'Acta',
    agenda: 'Orden del día',
    memo: 'Memorándum',
    letter: 'Carta',
    email: 'Correo electrónico',
    presentation: 'Presentación',
    manual: 'Manual',
    'research paper': 'Artículo de investigación',
    resume: 'Currículum',
  },
}

interface Phrasing {
  /** `Document about Pfizer Inc.` when the kind is unknown. */
  readonly document: string
  readonly about: string
  readonly of: string
  readonly dated: (label: string) => string
  readonly covering: (label: string) => string
}

const PHRASING: Readonly<Record<'en' | 'fr' | 'de' | 'es', Phrasing>> = {
  en: {
    document: 'Document',
    about: 'about',
    of: 'of',
    dated: (label) => ` dated ${label}`,
    covering: (label) => (/^\p{Ll}/u.test(label) ? ` for the ${label}` : ` for ${label}`),
  },
  fr: {
    document: 'Document',
    about: 'concernant',
    of: 'de',
    dated: (label) => `, daté du ${label}`,
    covering: (label) => `, ${label}`,
  },
  de: {
    document: 'Dokument',
    about: 'über',
    of: 'von',
    dated: (label) => `, datiert vom ${label}`,
    covering: (label) => `, ${label}`,
  },
  es: {
    document: 'Documento',
    about: 'sobre',
    of: 'de',
    dated: (label) => `, con fecha ${label}`,
    covering: (label) => `, ${label}`,
  },
}

function kindWords(kind: string, language: 'en' | 'fr' | 'de' | 'es'): string {
  const words = language === 'en' ? kind : (KINDS[language][kind as DocumentKind] ?? kind)
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * One sentence made from a card, in the document's language (English, French, German or Spanish;
 * English otherwise), that opens the generated description: `Quarterly report of Pfizer Inc. (PFE)
 * for the quarter ended July 2, 2023 (Q2 of fiscal 2023).` Null when the card says nothing. The
 * lead engineer regenerates it when a user corrects the card, so it reads the card only.
 */
export function cardSentence(card: DocumentCard, language: string): string | null {
  const code = baseLanguage(language)
  const lang = code === 'fr' || code === 'de' || code === 'es' ? code : 'en'
  const phrasing = PHRASING[lang]
  const [subject, ...others] = card.subjects
  const tickers = others.filter((other) => TICKER.test(other))
  const who = subject ? `${subject}${tickers.length > 0 ? ` (${tickers.join(', ')})` : ''}` : ''
  const period = card.period
  if (!card.kind && !who && !period) return null
  const head = card.kind
    ? `${kindWords(card.kind, lang)}${who ? ` ${phrasing.of} ${who}` : ''}`
    : `${phrasing.document}${who ? ` ${phrasing.about} ${who}` : ''}`
  const when = period
    ? period.start === period.end
      ? phrasing.dated(period.label)
      : phrasing.covering(period.label)
    : ''
  const sentence = `${head}${when}`
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`
}
