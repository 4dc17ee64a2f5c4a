/**
 * Runs `task` on every item with at most `limit` running at once, in the items' order. The first
 * task that throws stops new ones from starting; the running ones finish, then that error is thrown.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  let failure: { error: unknown } | undefined
  const lane = async () => {
    while (failure === undefined && next < items.length) {
      const item = items[next++] as T
      try {
        await task(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane))
  if (failure) throw failure.error
}
