import { cleanText } from '../../lib/whitespace.js'
import type { ImageBlock } from '../model.js'
import { type Located, pageRange } from './located.js'
import { splitToBudget } from './text.js'
import { countTokens } from './tokens.js'

/** An image's OCR text in chunks of its own within the budget, each headed by `prefix` (the heading path). */
export function imageChunks(block: ImageBlock, prefix: string, budget: number): Located[] {
  const chunks: Located[] = []
  const text = cleanText(block.text)
  if (!text) return chunks
  const prefixTokens = prefix ? countTokens(prefix) + 1 : 0
  const room = Math.max(8, budget - prefixTokens - 2)
  const pageNumber = block.sheet ?? pageRange(block.page, block.page)
  let pieces: string[] = []
  let used = 0
  const emit = (): void => {
    if (pieces.length === 0) return
    const chunkText = prefix ? `${prefix}\n${pieces.join(' ')}` : pieces.join(' ')
    chunks.push({
      category: 'image',
      text: chunkText,
      tokens: countTokens(chunkText),
      pageNumber,
      rowIdx: null,
      imageId: block.imageId,
    })
    pieces = []
    used = 0
  }
  for (const piece of splitToBudget(text, room)) {
    if (pieces.length && used + 1 + piece.tokens > room) emit()
    pieces.push(piece.text)
    used += (pieces.length > 1 ? 1 : 0) + piece.tokens
  }
  emit()
  return chunks
}
