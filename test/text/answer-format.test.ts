import { describe, expect, it } from 'vitest'
import { withoutAnswerFormat } from '../../src/text/answer-format.js'

describe('what a question says about writing its answer', () => {
  it('drops sentences that ask for a rounding or a unit to answer in', () => {
    expect(
      withoutAnswerFormat(
        'What is the FY2019 - FY2020 revenue growth rate? Answer in units of percents and round to one decimal place.',
        'en',
      ),
    ).toBe('What is the FY2019 - FY2020 revenue growth rate?')
    expect(
      withoutAnswerFormat('Ratio is defined as: cash / liabilities. Round your answer to two decimal places.', 'en'),
    ).toBe('Ratio is defined as: cash / liabilities.')
    expect(withoutAnswerFormat('How much cash did operations generate in 2020? Answer in USD millions.', 'en')).toBe(
      'How much cash did operations generate in 2020?',
    )
    expect(withoutAnswerFormat('Quel est le chiffre d’affaires 2023 ? Arrondissez à deux décimales.', 'fr')).toBe(
      'Quel est le chiffre d’affaires 2023?',
    )
  })

  it('drops an aside or a trailing clause that asks for a rounding, and keeps the rest of the sentence', () => {
    expect(
      withoutAnswerFormat(
        'What is the 2 year revenue CAGR (in units of percents and round to one decimal place)?',
        'en',
      ),
    ).toBe('What is the 2 year revenue CAGR?')
    expect(withoutAnswerFormat('What is the U.S. federal tax rate, rounded to two decimal places?', 'en')).toBe(
      'What is the U.S. federal tax rate?',
    )
    // An aside that says something else stays.
    expect(withoutAnswerFormat('What did Block (formerly Square) earn?', 'en')).toBe(
      'What did Block (formerly Square) earn?',
    )
  })

  it('keeps words about rounds and answers that are what is asked, and the question as written', () => {
    for (const question of [
      'How did the round of financing in 2021 change our cash?',
      'What answer did the board give in March to the union?',
      'Who answers in the name of the company when the press calls?',
      'Revenue by segment\nWhich segment grew most ?',
    ]) {
      expect(withoutAnswerFormat(question, 'en')).toBe(question)
    }
  })

  it('returns a question that is nothing but an instruction, or in a language without patterns, as it is', () => {
    expect(withoutAnswerFormat('Round answer to two decimal places.', 'en')).toBe('Round answer to two decimal places.')
    expect(withoutAnswerFormat('Wie hoch war der Umsatz? Runden Sie auf zwei Dezimalstellen.', 'de')).toBe(
      'Wie hoch war der Umsatz? Runden Sie auf zwei Dezimalstellen.',
    )
  })
})
