/**
 * A sleep that can be cut short: `wait()` resolves after its timeout or at the next `notify()`,
 * whichever comes first. A notification that arrives while nobody waits is kept for the next wait,
 * so a wake-up is never lost between two checks.
 */
export class Wakeup {
  private pending = false
  private resolve: (() => void) | undefined

  /** Resolves at the next notification, or after `ms` when given. */
  wait(ms?: number): Promise<void> {
    if (this.pending) {
      this.pending = false
      return Promise.resolve()
    }
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => done(), ms)
      const done = () => {
        clearTimeout(timer)
        if (this.resolve === done) this.resolve = undefined
        resolve()
      }
      this.resolve = done
    })
  }

  notify(): void {
    const resolve = this.resolve
    if (resolve) {
      this.resolve = undefined
      resolve()
    } else {
      this.pending = true
    }
  }
}
