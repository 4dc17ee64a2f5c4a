import { SLOT_WORDS, type Statistic } from '../lexicon/statistics.js'
import { fold, splitHeader } from '../tokenise.js'

/**
 * What an answer format's slots (`@mean_fare[…]`, read by prepare.ts) ask for: the statistics
 * their names use the words of.
 */

/** A name's words, lower case, split at underscores, case changes and digits, plus the whole name joined. */
export function wordsOf(name: string): string[] {
  const words = fold(splitHeader(name).replace(/(\d+)/g, ' $1 '))
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  return [...words, words.join('')]
}

/** Whether every slot of an answer format names a statistic the planner computes. */
export function slotsNameStatistics(slots: readonly string[]): boolean {
  const stats = Object.keys(SLOT_WORDS) as Statistic[]
  return slots.length > 0 && slots.every((slot) => stats.some((stat) => namedBySlots([slot], stat)))
}

/** Whether some slot's name uses a word of the statistic: statistics no slot names are not asked for. */
export function namedBySlots(slots: readonly string[], stat: Statistic): boolean {
  return slots.some((slot) => {
    const words = new Set(wordsOf(slot))
    return SLOT_WORDS[stat].some((word) => words.has(word))
  })
}
