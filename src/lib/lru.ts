/** A map that keeps at most `capacity` entries, dropping the least recently used first. */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>()

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key)
    if (value === undefined) return undefined
    // Map order is insertion order: moved to the end, the most recently used.
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  set(key: K, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next()
      if (oldest.done) break
      this.entries.delete(oldest.value)
    }
  }
}
