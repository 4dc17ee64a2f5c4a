import { describe, expect, it } from 'vitest'
import { IngestError } from '../../src/ingestion/errors.js'
import { loadParserFor, parserFor, supportedMimeTypes } from '../../src/ingestion/parsers/registry.js'

describe('parser registry', () => {
  it('gives every supported MIME type a parser that declares it, loaded at its first use', async () => {
    const types = supportedMimeTypes()
    expect(types).toContain('application/pdf')
    expect(new Set(types).size).toBe(types.length)
    for (const mimeType of types) {
      expect(parserFor(mimeType).mimeTypes).toContain(mimeType)
      expect((await loadParserFor(mimeType)).mimeTypes).toContain(mimeType)
    }
  })

  it('refuses an unsupported type at once, as a permanent failure', () => {
    expect(() => parserFor('application/x-unknown')).toThrow(IngestError)
    try {
      parserFor('application/x-unknown')
    } catch (error) {
      expect((error as IngestError).permanent).toBe(true)
      expect((error as IngestError).message).toContain('unsupported file type: application/x-unknown')
    }
  })
})
