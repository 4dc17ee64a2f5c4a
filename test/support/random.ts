/** mulberry32: a small seeded generator, uniform in [0, 1), so that tests and benchmarks draw the same values on every run. */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The same generator drawing integers: `next(n)` is in [0, n), so failures reproduce. */
export function seededRandom(seed: number): (n: number) => number {
  const next = seededUniform(seed)
  return (n) => Math.floor(next() * n)
}
