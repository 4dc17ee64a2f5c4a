import { pathWords } from '../../retrieval/context/context-terms.js'
import type { RetrievedChunk } from '../../retrieval/types.js'

/** The words that say what a chunk's document is: its card (who, what, when) and its file name and folders. */
export function contextText(chunk: RetrievedChunk): string {
  const { filename, folders } = pathWords(chunk.objectName)
  const card = chunk.card
  const parts = [filename, folders]
  if (card) parts.push(...card.subjects, card.title ?? '', card.kind ?? '', card.period?.label ?? '')
  return parts.filter(Boolean).join('\n')
}
