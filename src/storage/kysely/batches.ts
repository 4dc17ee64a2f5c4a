/** `items` in consecutive slices of at most `size`: rows per INSERT and ids per IN list stay under both engines' limits. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = []
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size))
  return result
}
