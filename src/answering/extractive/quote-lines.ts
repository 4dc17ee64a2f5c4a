import type { RetrievedChunk } from '../../retrieval/types.js'
import type { Candidate } from './candidate.js'

function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/** What tells a quoted document apart in a trend or a comparison: its subject and period, as its card says. */
function documentLabel(chunk: RetrievedChunk): string {
  const card = chunk.card
  const parts = [card?.subjects[0], card?.period?.label].filter((part): part is string => !!part)
  return parts.length > 0 ? `${parts.join(', ')}: ` : ''
}

/**
 * The answer's lines for the picked passages, each cited `[n]`: a passage under the head (a table's
 * title, unit and header row) it is read with, the head not repeated for the next row under it;
 * with `labelled`, each introduced by its document's subject and period (a trend, a comparison).
 * A passage other sources repeat cites them too (`[1][3]`). Also the sources cited, in the order
 * first quoted.
 */
export function quoteLines(
  picked: readonly Candidate[],
  sources: readonly RetrievedChunk[],
  labelled: boolean,
  maxChars: number,
): { lines: string[]; cited: number[] } {
  const cited: number[] = []
  const lines: string[] = []
  let previousHead = ''
  for (const candidate of picked) {
    const own = [candidate.source, ...(candidate.alsoIn ?? [])]
    for (const source of own) if (!cited.includes(source)) cited.push(source)
    const { passage } = candidate
    const quote = `${clip(passage.text, maxChars)} ${own.map((source) => `[${source + 1}]`).join('')}`
    const label = labelled ? documentLabel(sources[candidate.source] as RetrievedChunk) : ''
    if (passage.head === '') lines.push(`- ${label}${quote}`)
    else if (passage.head === previousHead && label === '') lines.push(`  ${quote}`)
    else lines.push(`- ${label}${passage.head.split('\n').join('\n  ')}\n  ${quote}`)
    previousHead = passage.head
  }
  return { lines, cited }
}
