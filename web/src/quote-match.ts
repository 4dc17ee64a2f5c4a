/** Letters and digits only, lower case, one space between words: how page text and quote compare. */
export function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/** A run of text items shorter than this (letters and digits) is a coincidence, not the passage. */
const MIN_RUN = 24
/** An item this long may be part of a word of the quote (a hyphenated or split word); shorter ones must be whole words. */
const MIN_PARTIAL = 8

/**
 * The indexes of the page's text items (pdf.js text content, in reading order) that belong to the
 * quoted passage: runs of consecutive items each found in the quote, blank items bridging them,
 * kept when the run holds at least MIN_RUN letters and digits (most of the quote, when it is
 * shorter). A lone common word found in the quote ("Total", "2023") is never marked by itself.
 */
export function quotedItems(items: readonly string[], quote: string): Set<number> {
  const wanted = ` ${comparable(quote)} `
  const marked = new Set<number>()
  if (wanted.trim() === '') return marked
  const runs: { items: number[]; weight: number }[] = []
  let run: { items: number[]; weight: number } | null = null
  for (const [index, item] of items.entries()) {
    const text = comparable(item)
    if (text === '') {
      run?.items.push(index)
      continue
    }
    const found = wanted.includes(` ${text} `) || (text.length >= MIN_PARTIAL && wanted.includes(text))
    if (!found) {
      run = null
      continue
    }
    if (!run) {
      run = { items: [], weight: 0 }
      runs.push(run)
    }
    run.items.push(index)
    run.weight += text.length
  }
  // A quote shorter than MIN_RUN is found when most of it is.
  const enough = Math.min(MIN_RUN, Math.ceil(wanted.trim().length * 0.8))
  for (const each of runs) {
    if (each.weight >= enough) for (const index of each.items) marked.add(index)
  }
  return marked
}
