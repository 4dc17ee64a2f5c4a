/** A time limit that stops counting while paused (the document's time is its own processing, not the store's). */
export class Budget {
  private timer: NodeJS.Timeout | undefined
  private resumedAt = 0
  /** Pauses may overlap (a batch being stored, OCR waiting for its permit): it runs when none is on. */
  private pauses = 0

  constructor(
    private remainingMs: number,
    private readonly expire: () => void,
  ) {
    this.start()
  }

  private start(): void {
    this.resumedAt = Date.now()
    this.timer = setTimeout(this.expire, Math.max(0, this.remainingMs))
  }

  pause(): void {
    this.pauses += 1
    if (this.pauses > 1) return
    clearTimeout(this.timer)
    this.remainingMs -= Date.now() - this.resumedAt
  }

  resume(): void {
    if (this.pauses === 0) return
    this.pauses -= 1
    if (this.pauses === 0) this.start()
  }

  stop(): void {
    clearTimeout(this.timer)
  }
}
