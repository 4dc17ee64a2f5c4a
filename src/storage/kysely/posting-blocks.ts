/**
 * The bytes of a posting block (migration 0009): the postings of one term in the chunks one write
 * of a document added, ascending by chunk idx. Per posting three unsigned LEB128 varints: the chunk
 * idx less the previous one (the block's `first_chunk` for the first), the term's frequency in the
 * chunk, and the chunk's length in terms. About 4 bytes a posting where a row of its own took about
 * 60 in two B-trees.
 */

/** One posting of a block. */
export interface BlockPosting {
  readonly chunkIdx: number
  readonly tf: number
  /** `term_count` of the chunk. */
  readonly termCount: number
}

function varintLength(value: number): number {
  let length = 1
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) length++
  return length
}

/** Encodes postings ascending by chunk idx, the first at `firstChunk`. */
export function encodeBlock(firstChunk: number, postings: readonly BlockPosting[]): Buffer {
  let size = 0
  let previous = firstChunk
  for (const { chunkIdx, tf, termCount } of postings) {
    size += varintLength(chunkIdx - previous) + varintLength(tf) + varintLength(termCount)
    previous = chunkIdx
  }
  const bytes = Buffer.allocUnsafe(size)
  let at = 0
  const put = (value: number) => {
    let rest = value
    while (rest >= 0x80) {
      bytes[at++] = (rest & 0x7f) | 0x80
      rest = Math.floor(rest / 0x80)
    }
    bytes[at++] = rest
  }
  previous = firstChunk
  for (const { chunkIdx, tf, termCount } of postings) {
    if (chunkIdx < previous) throw new Error('a block holds its postings in ascending chunk order')
    put(chunkIdx - previous)
    put(tf)
    put(termCount)
    previous = chunkIdx
  }
  return bytes
}

/**
 * Calls `visit` for each posting of a block, in chunk order: no object per posting, since a load
 * of a company's index decodes millions.
 */
export function decodeBlock(
  firstChunk: number,
  bytes: Uint8Array,
  visit: (chunkIdx: number, tf: number, termCount: number) => void,
): void {
  let at = 0
  const next = () => {
    let value = 0
    let scale = 1
    for (;;) {
      const byte = bytes[at++]
      if (byte === undefined) throw new Error('truncated posting block')
      value += (byte & 0x7f) * scale
      if (byte < 0x80) return value
      scale *= 0x80
    }
  }
  let chunkIdx = firstChunk
  while (at < bytes.length) {
    chunkIdx += next()
    const tf = next()
    visit(chunkIdx, tf, next())
  }
}
