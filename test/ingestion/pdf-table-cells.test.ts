import { describe, expect, it } from 'vitest'
import { cellRole, joinCurrency, splitTrailingFigures } from '../../src/ingestion/parsers/pdf-table-cells.js'
import { isUnitPhrase, splitUnit } from '../../src/ingestion/parsers/table-units.js'

/** Cells 40 points apart, 20 wide. */
const placed = (texts: readonly string[]) => texts.map((text, i) => ({ text, left: i * 40, right: i * 40 + 20 }))
const texts = (cells: readonly { text: string }[]) => cells.map((cell) => cell.text)

describe('PDF table cells', () => {
  it('tells figures, nil dashes, periods and symbols from words', () => {
    const roles = ['1,234', '(2,549 )', '($4,935)', '12.5%', '—', '2023', '12/31/2022', '$', 'July 2,', '1,234 (a)']
    expect(roles.map(cellRole)).toEqual([
      'figure',
      'figure',
      'figure',
      'figure',
      'nil',
      'period',
      'period',
      'currency',
      'text',
      'figure',
    ])
  })

  it('joins currency symbols to their amounts, wherever the text layer put them', () => {
    expect(texts(joinCurrency(placed(['Revenues', '$', '12,734 $', '27,742 $', '31,015'])))).toEqual([
      'Revenues',
      '$12,734',
      '$27,742',
      '$31,015',
    ])
    expect(texts(joinCurrency(placed(['Cash ........ $', '348,283 $', '— $', '—'])))).toEqual([
      'Cash ........',
      '$348,283',
      '$—',
      '$—',
    ])
    expect(texts(joinCurrency(placed(['Total', '$ 2,547 $ 3,604', '(30 )', '%'])))).toEqual([
      'Total',
      '$2,547',
      '$3,604',
      '(30 )%',
    ])
    // A figure written with spaces between thousands stays one figure; € after an amount is its unit.
    expect(texts(joinCurrency(placed(['Produits', '1 234 567', '890', '€'])))).toEqual([
      'Produits',
      '1 234 567',
      '890 €',
    ])
  })

  it('splits figures off a label only where they reach into the columns', () => {
    const merged = { text: 'Total liabilities 43,614 39,914', left: 70, right: 370 }
    expect(texts(splitTrailingFigures(merged, 200))).toEqual(['Total liabilities', '43,614', '39,914'])
    expect(texts(splitTrailingFigures({ text: 'Senior notes due 2025', left: 70, right: 170 }, 200))).toEqual([
      'Senior notes due 2025',
    ])
  })

  it('knows a unit line, alone or in parentheses at the end of a title', () => {
    for (const unit of [
      '(MILLIONS, EXCEPT PER SHARE DATA)',
      '(Dollars in millions, except per share data)',
      '($ million)',
      'In thousands',
      "en milliers d'euros",
      '(in days)',
    ]) {
      expect(isUnitPhrase(unit), unit).toBe(true)
    }
    for (const text of ['(UNAUDITED)', 'Three Months Ended', 'Revenue rose by 5 million', '(in the U.S.)']) {
      expect(isUnitPhrase(text), text).toBe(false)
    }
    expect(splitUnit('Changes in the balance sheet (in millions):')).toEqual({
      rest: 'Changes in the balance sheet:',
      unit: '(in millions)',
    })
  })
})
