import { describe, expect, it } from 'vitest'
import { extractiveSummary } from '../../src/answering/export.js'
import { PHRASES } from '../../src/answering/phrases.js'

describe('offline chat summary', () => {
  it('summarises the content of extractive answers, not their framing line or bullets', () => {
    const summary = extractiveSummary([
      { actor: 'user', text: 'How many days of leave do I get?' },
      {
        actor: 'assistant',
        text: `${PHRASES.en.intro}\n- You get 25 days of paid leave per year [1]\n- Unused days expire in March [2]`,
      },
      { actor: 'user', text: 'Et les congés maladie ?' },
      { actor: 'assistant', text: `${PHRASES.fr.intro}\n- Les congés maladie sont payés 30 jours. [1]` },
    ])
    expect(summary).toBe(
      'How many days of leave do I get? You get 25 days of paid leave per year Les congés maladie sont payés 30 jours.',
    )
  })

  it('keeps a plain answer sentence and skips one already picked', () => {
    const summary = extractiveSummary([
      { actor: 'user', text: 'Where is the office?' },
      { actor: 'assistant', text: 'The office is in Lyon. It opens at 8.' },
      { actor: 'user', text: 'Where again?' },
      { actor: 'assistant', text: 'The office is in Lyon.' },
    ])
    expect(summary).toBe('Where is the office? The office is in Lyon.')
  })
})
