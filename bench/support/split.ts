import { createHash } from 'node:crypto'

/** Which half of a benchmark's subjects (companies, tables) a change may be tuned on. */
export type Split = 'held-out' | 'tune'

/** Held-out first: every report gives the figure that counts before the one tuned on. */
export const SPLITS: readonly Split[] = ['held-out', 'tune']

/**
 * The split of a subject (a company's name, a table's id): sha256 of it (UTF-8) as a big integer,
 * even → tune, odd → held-out. A hash, not a list, so that no one chooses what is tuned on.
 */
export function splitOf(subject: string): Split {
  const digest = createHash('sha256').update(subject, 'utf8').digest('hex')
  return BigInt(`0x${digest}`) % 2n === 0n ? 'tune' : 'held-out'
}
