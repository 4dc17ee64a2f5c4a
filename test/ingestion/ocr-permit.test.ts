import { describe, expect, it } from 'vitest'
import { OcrPermit } from '../../src/ingestion/ocr/ocr-permit.js'

/** Whether a promise has settled by the time the pending timers and microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false
  void promise.then(() => {
    done = true
  })
  await new Promise((resolve) => setTimeout(resolve, 20))
  return done
}

describe('OCR permit: one OCR engine in the process at a time', () => {
  it('lets one holder in, makes the next wait until it is given back, and says when it waits', async () => {
    const buffer = OcrPermit.createBuffer()
    const first = new OcrPermit(buffer, 1)
    const second = new OcrPermit(buffer, 2)
    await first.acquire()
    expect(first.held).toBe(true)
    const waits: boolean[] = []
    const waiting = second.acquire((state) => waits.push(state))
    expect(await settled(waiting)).toBe(false)
    expect(waits).toEqual([true])
    expect(first.wanted).toBe(true)
    // Taking it again while holding it does not wait; giving back what one does not hold changes nothing.
    await first.acquire()
    second.release()
    expect(first.held).toBe(true)
    first.release()
    await waiting
    expect(second.held).toBe(true)
    expect(first.wanted).toBe(false)
    expect(waits).toEqual([true, false])
    second.release()
    expect(second.held).toBe(false)
  })

  it('frees the permit of a thread that ended holding it, and only that one', async () => {
    const buffer = OcrPermit.createBuffer()
    const dead = new OcrPermit(buffer, 7)
    const next = new OcrPermit(buffer, 8)
    await dead.acquire()
    const waiting = next.acquire()
    OcrPermit.releaseHeldBy(buffer, 9)
    expect(await settled(waiting)).toBe(false)
    OcrPermit.releaseHeldBy(buffer, 7)
    await waiting
    expect(next.held).toBe(true)
  })
})
