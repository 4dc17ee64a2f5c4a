/** Lower-cased alphanumeric words (letters and digits of any script), in order. */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

function counts(words: readonly string[]): Map<string, number> {
  const map = new Map<string, number>()
  for (const word of words) map.set(word, (map.get(word) ?? 0) + 1)
  return map
}

/** A text prepared for coverage questions: its word counts. */
export class Bag {
  readonly counts: Map<string, number>
  constructor(text: string) {
    this.counts = counts(tokens(text))
  }
}

/**
 * Token coverage of `evidence` by `bag`, as a multiset: each evidence word counts as found at most
 * as many times as it occurs in the bag (a figure repeated in the evidence must be repeated in the
 * page). `presence` is the looser set-style share: evidence words (with repetition) that occur in
 * the bag at all. Both are 1 for an evidence text without words.
 */
export function coverage(evidence: string, bag: Bag): { multiset: number; presence: number } {
  const words = tokens(evidence)
  if (words.length === 0) return { multiset: 1, presence: 1 }
  let found = 0
  for (const [word, count] of counts(words)) found += Math.min(count, bag.counts.get(word) ?? 0)
  const present = words.filter((word) => bag.counts.has(word)).length
  return { multiset: found / words.length, presence: present / words.length }
}

/** Up to `limit` evidence words the bag lacks (or has fewer of), most-missing first: what a failure lost. */
export function missingWords(evidence: string, bag: Bag, limit = 5): string[] {
  const deficits: Array<[string, number]> = []
  for (const [word, count] of counts(tokens(evidence))) {
    const short = count - Math.min(count, bag.counts.get(word) ?? 0)
    if (short > 0) deficits.push([word, short])
  }
  return deficits
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([word]) => word)
}

/** The pages a chunk's `page_number` covers: `"3"` → [3], `"3-5"` → [3,4,5], `4` → [4]; [] otherwise. */
export function pagesOf(pageNumber: unknown): number[] {
  if (typeof pageNumber === 'number' && Number.isInteger(pageNumber)) return [pageNumber]
  if (typeof pageNumber !== 'string') return []
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(pageNumber)
  if (!match?.[1]) return []
  const first = Number(match[1])
  const last = match[2] ? Number(match[2]) : first
  if (last < first || last - first > 1000) return []
  return Array.from({ length: last - first + 1 }, (_, i) => first + i)
}
