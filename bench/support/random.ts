import { seededUniform } from '../../test/support/random.js'

/** A copy of `items` in the order of a Fisher–Yates shuffle drawn from `seed`. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const random = seededUniform(seed)
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const swap = out[i] as T
    out[i] = out[j] as T
    out[j] = swap
  }
  return out
}
