/**
 * Time as the service stores it: UTC ISO 8601 text with microseconds and no zone,
 * `2026-11-22T09:05:03.123456`. Fixed-width, so text order is time order in every store.
 */
export type Timestamp = string

export interface Clock {
  /** Strictly increasing within the process, so two writes never share a timestamp. */
  now(): Timestamp
}

let lastMicros = 0

function microsNow(): number {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000)
  lastMicros = Math.max(micros, lastMicros + 1)
  return lastMicros
}

/** ISO text with 6 fractional digits and no zone for a count of microseconds since the epoch. */
export function microsToTimestamp(micros: number): Timestamp {
  const millis = Math.floor(micros / 1000)
  const base = new Date(millis).toISOString().slice(0, 19)
  const fraction = String(micros - Math.floor(micros / 1_000_000) * 1_000_000).padStart(6, '0')
  return `${base}.${fraction}`
}

export const systemClock: Clock = { now: () => microsToTimestamp(microsNow()) }

/** Milliseconds since the epoch for a stored timestamp. */
export function timestampToMillis(timestamp: Timestamp): number {
  return Date.parse(`${timestamp.slice(0, 23)}Z`)
}

/** `Sun, 22 Nov 2026 09:05:03 GMT` (IMF-fixdate), the chat datetime format. */
export function toHttpDate(timestamp: Timestamp): string {
  return new Date(timestampToMillis(timestamp)).toUTCString()
}

/** `2026-11-22T09:05:03.123456Z`, the send-message datetime format. */
export function toIsoZulu(timestamp: Timestamp): string {
  return `${timestamp}Z`
}

/** `2026-11-22 09:05:03`, the export datetime format. */
export function toExportTime(timestamp: Timestamp): string {
  return timestamp.slice(0, 19).replace('T', ' ')
}

/** Stored form of a calendar date given as `YYYY-MM-DD`: the end of that day, UTC. */
export function endOfDay(date: string): Timestamp {
  return `${date}T23:59:59.999999`
}

/** Adds seconds to a stored timestamp (millisecond resolution is enough for expiries). */
export function addSeconds(timestamp: Timestamp, seconds: number): Timestamp {
  return microsToTimestamp((timestampToMillis(timestamp) + seconds * 1000) * 1000)
}
