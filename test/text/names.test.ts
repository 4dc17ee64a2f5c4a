import { describe, expect, it } from 'vitest'
import { mentions, questionNames } from '../../src/text/names.js'

const names = (question: string) => questionNames(question, 'en').map((name) => [name.surface, name.certain] as const)

describe('questionNames', () => {
  it('finds capitalised names in mid-sentence, joined by spaces or an ampersand, possessives dropped', () => {
    expect(names("What was Globex's revenue in the most recent quarter?")).toEqual([['Globex', true]])
    expect(names('How did Umbrella Holdings and Wayne Enterprises compare?')).toEqual([
      ['Umbrella Holdings', true],
      ['Wayne Enterprises', true],
    ])
    expect(names('What is the net income of Johnson & Johnson?')).toEqual([['Johnson & Johnson', true]])
  })

  it('takes words with capitals inside or digits as names, wherever they stand', () => {
    expect(names('Is 3M a capital-intensive business?')).toEqual([['3M', true]])
    expect(names('JnJ and PepsiCo dividends')).toEqual([
      ['JnJ', true],
      ['PepsiCo', true],
    ])
  })

  it('leaves it to the documents to say whether a word in capitals or a sentence opener is a name', () => {
    expect(names('Answer in USD. What is the capex for ACME?')).toEqual([
      ['Answer', false],
      ['USD', false],
      ['ACME', false],
    ])
    expect(names('Initech revenue growth?')).toEqual([['Initech', false]])
    // Whatever owns something is a name.
    expect(names("Initech's revenue growth?")).toEqual([['Initech', true]])
    expect(names("What is ACME's capex?")).toEqual([['ACME', true]])
    // A capitalised opener stands alone: it is not the first word of the next name.
    expect(names('Describe Initech debt.')).toEqual([
      ['Describe', false],
      ['Initech', true],
    ])
    // A function word opening the question is none.
    expect(names('Does Initech have debt?')).toEqual([['Initech', true]])
  })

  it('skips function words opening a sentence, months, days, periods and report codes', () => {
    expect(names('What was the FY2022 revenue in Q2 and in May? Give the 10-K of Monday.')).toEqual([['Give', false]])
  })

  it('gives the parts of a name and its joined form as terms', () => {
    const [name] = questionNames('the sales of Foot Locker', 'en')
    expect(name?.terms).toEqual(['foot', 'locker', 'footlock'])
  })

  it('tells whether a text mentions a name, whatever the punctuation, case or spacing', () => {
    const [amazon] = questionNames("What is Amazon.com's revenue?", 'en')
    const [footLocker] = questionNames('Sales of Foot Locker', 'en').slice(-1)
    const [jnj] = questionNames('Sales of Johnson & Johnson', 'en').slice(-1)
    if (!amazon || !footLocker || !jnj) throw new Error('names expected')
    expect(mentions('AMAZON.COM, INC. reports', amazon)).toBe(true)
    expect(mentions('Amazon and .com domains', amazon)).toBe(false)
    expect(mentions('Footlocker stores', footLocker)).toBe(true)
    expect(mentions('a foot in the locker', footLocker)).toBe(false)
    expect(mentions('JOHNSON & JOHNSON (NYSE: JNJ)', jnj)).toBe(true)
    expect(mentions('Johnson Controls', jnj)).toBe(false)
  })
})
