/** Values in first-seen order without repeats, each keeping the index it had in the input (error paths point into the request). */
export function distinctWithIndex(values: readonly string[]): { value: string; index: number }[] {
  const seen = new Set<string>()
  const kept: { value: string; index: number }[] = []
  values.forEach((value, index) => {
    if (seen.has(value)) return
    seen.add(value)
    kept.push({ value, index })
  })
  return kept
}
