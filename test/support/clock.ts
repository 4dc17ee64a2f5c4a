import { addSeconds, type Clock, systemClock, type Timestamp } from '../../src/lib/clock.js'

/** The system clock shifted by a settable offset, to age tokens and licences without waiting. */
export class ShiftedClock implements Clock {
  private offsetSeconds = 0

  now(): Timestamp {
    return this.offsetSeconds === 0 ? systemClock.now() : addSeconds(systemClock.now(), this.offsetSeconds)
  }

  advance(seconds: number): void {
    this.offsetSeconds += seconds
  }
}
