import { describe, expect, it } from 'vitest'
import { formatByteSize, parseByteSize } from '../../src/lib/sizes.js'

describe('parseByteSize', () => {
  it.each([
    ['0B', 0],
    ['512B', 512],
    ['1KB', 1024],
    ['10GB', 10 * 1024 ** 3],
    ['512 MB', 512 * 1024 ** 2],
    ['1.5TB', 1.5 * 1024 ** 4],
    ['2gb', 2 * 1024 ** 3],
    [' 3MB ', 3 * 1024 ** 2],
  ])('reads %j as %d bytes (powers of 1024)', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes)
  })

  it.each(['', 'GB', '10', '10 G', '-1GB', '1e3MB', '10PB', 'ten GB', '1,5GB', `${'9'.repeat(20)}TB`])(
    'rejects %j',
    (text) => {
      expect(parseByteSize(text)).toBeUndefined()
    },
  )
})

describe('formatByteSize', () => {
  it.each([
    [10 * 1024 ** 3, '10GB'],
    [512 * 1024 ** 2, '512MB'],
    [1024, '1KB'],
    [1536, '1536B'],
    [1.5 * 1024 ** 4, '1536GB'],
    [2 * 1024 ** 4, '2TB'],
    [0, '0B'],
    [1, '1B'],
  ])('writes %d bytes as %s', (bytes, text) => {
    expect(formatByteSize(bytes)).toBe(text)
  })

  it('round-trips through parseByteSize', () => {
    for (const bytes of [1, 1000, 1024, 5 * 1024 ** 2 + 1, 7 * 1024 ** 3, 3 * 1024 ** 4]) {
      expect(parseByteSize(formatByteSize(bytes))).toBe(bytes)
    }
  })
})
