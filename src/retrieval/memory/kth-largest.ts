/** The `k`-th largest positive score among ordinals [0, count) (−Infinity when fewer): a size-k min-heap. */
export function kthLargest(scores: Float64Array, count: number, k: number): number {
  if (k <= 0) return Number.POSITIVE_INFINITY
  const heap = new Float64Array(k)
  let size = 0
  for (let ordinal = 0; ordinal < count; ordinal++) {
    const value = scores[ordinal] as number
    if (value === 0) continue
    if (size < k) {
      let i = size++
      heap[i] = value
      while (i > 0) {
        const parent = (i - 1) >> 1
        if ((heap[parent] as number) <= (heap[i] as number)) break
        const swap = heap[parent] as number
        heap[parent] = heap[i] as number
        heap[i] = swap
        i = parent
      }
    } else if (value > (heap[0] as number)) {
      heap[0] = value
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        const right = left + 1
        let smallest = i
        if (left < k && (heap[left] as number) < (heap[smallest] as number)) smallest = left
        if (right < k && (heap[right] as number) < (heap[smallest] as number)) smallest = right
        if (smallest === i) break
        const swap = heap[smallest] as number
        heap[smallest] = heap[i] as number
        heap[i] = swap
        i = smallest
      }
    }
  }
  return size < k ? Number.NEGATIVE_INFINITY : (heap[0] as number)
}
