import type { WordMapping } from '../types.js'
import type { Intent } from './intent.js'

/** What the planner makes of a question: one intent, or the reason it declines. */

export interface Declined {
  readonly kind: 'declined'
  readonly reason: string
}

export type Recognition =
  | {
      readonly kind: 'intent'
      readonly intent: Intent
      /** Which words were read as the columns and values the intent uses (set by `recognise`). */
      readonly mapping?: readonly WordMapping[]
    }
  | Declined

export const declined = (reason: string): Declined => ({ kind: 'declined', reason })

export function isDeclined<T extends object>(value: T | Declined): value is Declined {
  return 'kind' in value && value.kind === 'declined'
}
