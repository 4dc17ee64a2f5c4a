import { describe, expect, it } from 'vitest'
import { type BlockPosting, decodeBlock, encodeBlock } from '../../src/storage/kysely/posting-blocks.js'

function decoded(firstChunk: number, bytes: Uint8Array): BlockPosting[] {
  const postings: BlockPosting[] = []
  decodeBlock(firstChunk, bytes, (chunkIdx, tf, termCount) => postings.push({ chunkIdx, tf, termCount }))
  return postings
}

describe('posting blocks', () => {
  it('gives back every posting in chunk order, small and large numbers alike', () => {
    const postings: BlockPosting[] = [
      { chunkIdx: 7, tf: 1, termCount: 1 },
      { chunkIdx: 8, tf: 127, termCount: 128 },
      { chunkIdx: 300, tf: 16_384, termCount: 2_000_000 },
      { chunkIdx: 2 ** 31 + 5, tf: 3, termCount: 2 ** 40 },
    ]
    expect(decoded(7, encodeBlock(7, postings))).toEqual(postings)
  })

  it('takes 3 bytes a posting for small gaps and counts', () => {
    const postings = Array.from({ length: 100 }, (_, i) => ({ chunkIdx: 40 + i * 3, tf: 1 + (i % 5), termCount: 90 }))
    const bytes = encodeBlock(40, postings)
    expect(bytes.length).toBe(300)
    expect(decoded(40, bytes)).toEqual(postings)
  })

  it('refuses postings out of chunk order and reports a cut-off block', () => {
    expect(() =>
      encodeBlock(5, [
        { chunkIdx: 6, tf: 1, termCount: 10 },
        { chunkIdx: 5, tf: 1, termCount: 10 },
      ]),
    ).toThrow(/ascending/)
    const bytes = encodeBlock(0, [{ chunkIdx: 0, tf: 300, termCount: 10 }])
    expect(() => decoded(0, bytes.subarray(0, 1))).toThrow(/truncated/)
  })
})
