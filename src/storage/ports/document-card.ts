/**
 * What a document is about, read from it at ingestion (src/ingestion/card) or corrected by a user
 * through the metadata patch: who it is about, when, and what kind of document it is. Retrieval,
 * automatic selection and the answerers use it to tell documents apart (docs/knowledge-base.md).
 */

import type { Period } from '../../text/periods/period.js'

export type { Period }

/** The period a document covers, with the words a person would use for it. */
export interface CardPeriod extends Period {
  /** `quarter ended July 2, 2023`, `fiscal year ended December 31, 2022`, `March 2024`. */
  readonly label: string
}

export interface DocumentCard {
  /** The document's title as a reader would name it; null when none could be found. */
  readonly title: string | null
  /**
   * Who or what the document is about, most important first: organisation names as written
   * (`Pfizer Inc.`), other names it goes by (a short name, a former name), ticker symbols.
   */
  readonly subjects: readonly string[]
  /** The period it covers (a report) or its date (a letter, minutes); null when none was found. */
  readonly period: CardPeriod | null
  /** Its kind in plain English words (`quarterly report`, `invoice`, `minutes`); null when unknown. */
  readonly kind: string | null
}

/** `ai` while the card is read from the document; `manual` once a user corrected it (reprocessing keeps it). */
export type CardType = 'ai' | 'manual'

export const EMPTY_CARD: DocumentCard = { title: null, subjects: [], period: null, kind: null }
