import { expect } from 'vitest'
import type { ApiResponse } from './test-app.js'

/** `2026-11-22T09:05:03.123456`: UTC, no zone, six fractional digits. */
export const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
/** `Sun, 22 Nov 2026 09:05:03 GMT` (IMF-fixdate). */
export const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Asserts a problem+json response with the given status and stable code. */
export function expectProblem(response: ApiResponse, status: number, code: string): void {
  expect({
    status: response.status,
    code: response.body?.code,
    text: response.status === status ? undefined : response.text,
  }).toEqual({
    status,
    code,
    text: undefined,
  })
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect(response.body).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
  })
  expect(response.text).not.toMatch(/at .*\.(ts|js):\d+|SELECT |INSERT |sqlite|postgres/i)
}
