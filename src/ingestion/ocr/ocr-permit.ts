/**
 * One OCR engine in the whole process at a time. A tesseract.js engine holds a few hundred MB
 * (its own thread and WebAssembly memory) for as long as it is loaded, and two processing threads
 * each reading a scan at the same moment took the service past 1 GiB. The processing threads share
 * two cells of a SharedArrayBuffer: the thread id of the permit's holder (0: free), and how many
 * threads wait for it; a thread takes it before loading an engine and gives it back when the
 * engine is ended.
 */
export class OcrPermit {
  private readonly cell: Int32Array

  /** `owner`: this thread's id (non-zero), so the permit of a thread that died can be freed. */
  constructor(
    buffer: SharedArrayBuffer,
    private readonly owner: number,
  ) {
    if (owner === 0) throw new Error('an OCR permit owner must be a non-zero thread id')
    this.cell = new Int32Array(buffer)
  }

  /** The shared cell, made once per process by whoever starts the processing threads. */
  static createBuffer(): SharedArrayBuffer {
    return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)
  }

  /** Frees the permit if `owner` (a thread that ended without giving it back) holds it. */
  static releaseHeldBy(buffer: SharedArrayBuffer, owner: number): void {
    const cell = new Int32Array(buffer)
    if (Atomics.compareExchange(cell, 0, owner, 0) === owner) Atomics.notify(cell, 0)
  }

  get held(): boolean {
    return Atomics.load(this.cell, 0) === this.owner
  }

  /** Whether another thread waits for the permit (its holder should then give it back soon). */
  get wanted(): boolean {
    return Atomics.load(this.cell, WAITING) > 0
  }

  /** Resolves once this thread holds the permit; `onWait` is told when it has to wait and when that ends. */
  async acquire(onWait?: (waiting: boolean) => void): Promise<void> {
    let waited = false
    try {
      for (;;) {
        const holder = Atomics.compareExchange(this.cell, 0, 0, this.owner)
        if (holder === 0 || holder === this.owner) break
        if (!waited) {
          Atomics.add(this.cell, WAITING, 1)
          onWait?.(true)
        }
        waited = true
        // Never blocks the thread's event loop; a holder that died is freed by the pool, which notifies.
        const wait = waitAsync(this.cell, 0, holder)
        if (wait.async) await wait.value
      }
    } finally {
      if (waited) Atomics.sub(this.cell, WAITING, 1)
    }
    if (waited) onWait?.(false)
  }

  release(): void {
    if (Atomics.compareExchange(this.cell, 0, this.owner, 0) === this.owner) Atomics.notify(this.cell, 0)
  }
}

/** The cell counting the threads that wait for the permit. */
const WAITING = 1

/** `Atomics.waitAsync` (Node 16+; typed from ES2024, beyond this build's ES2023 library). */
function waitAsync(
  cell: Int32Array,
  index: number,
  value: number,
): { async: false; value: string } | { async: true; value: Promise<string> } {
  const atomics = Atomics as unknown as {
    waitAsync(cell: Int32Array, index: number, value: number): ReturnType<typeof waitAsync>
  }
  return atomics.waitAsync(cell, index, value)
}
