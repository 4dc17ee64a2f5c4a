import { describe, expect, it } from 'vitest'
import {
  addSeconds,
  endOfDay,
  microsToTimestamp,
  systemClock,
  timestampToMillis,
  toExportTime,
  toHttpDate,
  toIsoZulu,
} from '../../src/lib/clock.js'
import { HTTP_DATE, ISO_MICROS } from '../support/assertions.js'

const T = '2026-11-22T09:05:03.123456'

describe('clock formats (DESIGN §4 datetimes)', () => {
  it('stores UTC ISO 8601 with six fractional digits and no zone', () => {
    expect(microsToTimestamp(Date.UTC(2026, 10, 22, 9, 5, 3, 123) * 1000 + 456)).toBe(T)
    expect(microsToTimestamp(0)).toBe('1970-01-01T00:00:00.000000')
    expect(systemClock.now()).toMatch(ISO_MICROS)
  })

  it('never gives the same timestamp twice and sorts as text in time order', () => {
    const stamps = Array.from({ length: 1000 }, () => systemClock.now())
    expect(new Set(stamps).size).toBe(stamps.length)
    expect([...stamps].sort()).toEqual(stamps)
  })

  it('formats chat datetimes as IMF-fixdate', () => {
    expect(toHttpDate(T)).toBe('Sun, 22 Nov 2026 09:05:03 GMT')
    expect(toHttpDate('2027-01-04T00:00:00.000000')).toMatch(HTTP_DATE)
  })

  it('formats send-message timestamps as ISO with Z', () => {
    expect(toIsoZulu(T)).toBe('2026-11-22T09:05:03.123456Z')
  })

  it('formats export times as YYYY-MM-DD hh:mm:ss', () => {
    expect(toExportTime(T)).toBe('2026-11-22 09:05:03')
  })

  it('reads stored timestamps as UTC milliseconds', () => {
    expect(timestampToMillis(T)).toBe(Date.UTC(2026, 10, 22, 9, 5, 3, 123))
  })

  it('stores a licence date as the end of that day', () => {
    expect(endOfDay('2027-12-31')).toBe('2027-12-31T23:59:59.999999')
    expect(endOfDay('2027-12-31')).toMatch(ISO_MICROS)
  })

  it('adds seconds across day and year boundaries', () => {
    expect(addSeconds('2026-12-31T23:59:30.000000', 60)).toBe('2027-01-01T00:00:30.000000')
    expect(addSeconds(T, 3600)).toBe('2026-11-22T10:05:03.123000')
  })
})
