import { afterEach, describe, expect, it } from 'vitest'
import { TesseractOcr } from '../../src/ingestion/ocr/ocr.js'
import { OcrPermit } from '../../src/ingestion/ocr/ocr-permit.js'
import { textImage } from './ocr-support.js'

const engines: TesseractOcr[] = []
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.terminate()))
})

/** A tesseract.js engine holding the permit of thread `owner` while it is loaded. */
function engineWithPermit(buffer: SharedArrayBuffer, owner: number): { engine: TesseractOcr; permit: OcrPermit } {
  const engine = new TesseractOcr()
  const permit = new OcrPermit(buffer, owner)
  engine.usePermit(permit)
  engines.push(engine)
  return { engine, permit }
}

describe('OCR engine between documents', () => {
  it('is kept for the next document that reads images, and ended after one that does not', async () => {
    const { engine, permit } = engineWithPermit(OcrPermit.createBuffer(), 1)
    const page = await textImage(['Invoice number 48213'])
    expect((await engine.recognize(page, ['eng'])).text).toBe('Invoice number 48213')
    await engine.endDocument()
    // Still loaded: the permit is given back only when the engine ends.
    expect(permit.held).toBe(true)
    expect((await engine.recognize(page, ['eng'])).text).toBe('Invoice number 48213')
    await engine.endDocument()
    expect(permit.held).toBe(true)
    // A document without images: the engine ends with it.
    await engine.endDocument()
    expect(permit.held).toBe(false)
  })

  it('is handed over to a thread waiting for the permit after four documents', async () => {
    const buffer = OcrPermit.createBuffer()
    const { engine, permit } = engineWithPermit(buffer, 1)
    const page = await textImage(['Page one'])
    await engine.recognize(page, ['eng'])
    const other = new OcrPermit(buffer, 2)
    const waiting = other.acquire()
    for (let document = 1; document < 4; document++) {
      await engine.endDocument()
      expect(permit.held).toBe(true)
      await engine.recognize(page, ['eng'])
    }
    await engine.endDocument()
    expect(permit.held).toBe(false)
    await waiting
    expect(other.held).toBe(true)
    other.release()
  })

  it('is ended a moment after its document when the thread reads no other image', async () => {
    const { engine, permit } = engineWithPermit(OcrPermit.createBuffer(), 1)
    await engine.recognize(await textImage(['Page one']), ['eng'])
    await engine.endDocument()
    expect(permit.held).toBe(true)
    await expect.poll(() => permit.held, { timeout: 10_000, interval: 100 }).toBe(false)
  }, 20_000)
})
