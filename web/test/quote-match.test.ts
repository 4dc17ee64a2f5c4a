import { describe, expect, it } from 'vitest'
import { comparable, quotedItems } from '../src/quote-match'

const marked = (items: string[], quote: string) => [...quotedItems(items, quote)].sort((a, b) => a - b)

describe('the quoted passage found among a PDF page text items', () => {
  it('marks the consecutive items of the passage, bridging blank items, and nothing around it', () => {
    const page = [
      'Quarterly report',
      'Net sales increased 8%',
      ' ',
      'compared with the same quarter',
      'of 2022, driven by services.',
      'Other matters',
      'The board met twice.',
    ]
    const quote = 'Net sales increased 8 % compared with the same quarter of 2022, driven by services.'
    expect(marked(page, quote)).toEqual([1, 2, 3, 4])
  })

  it('never marks a lone common word of the quote found elsewhere on the page', () => {
    const page = ['Total', 'Revenue by region', '2023', 'Unrelated paragraph about leases']
    expect(marked(page, 'Total revenue grew in 2023 thanks to the new stores in the north')).toEqual([])
  })

  it('finds a table row split into cells, and a word split across two items', () => {
    const page = ['iPhone', '39,669', '40,665', 'Mac', '6,840', 'Services', 'Subscrip', 'tion revenue']
    expect(marked(page, 'iPhone | 39,669 | 40,665\nMac | 6,840')).toEqual([0, 1, 2, 3, 4])
    expect(marked(['Annual subscription revenue of the platform'], 'subscription revenue of the platform')).toEqual([])
    expect(
      marked(['Annual report', 'subscription revenue of the platform'], 'Subscription revenue of the platform'),
    ).toEqual([1])
  })

  it('matches a short quote when most of it is on the page, and an empty quote never', () => {
    expect(marked(['Minutes', 'Approved'], 'Approved')).toEqual([1])
    expect(marked(['Anything'], '   ')).toEqual([])
  })

  it('compares letters and digits only, ignoring case, width and punctuation', () => {
    expect(comparable('  Ｎet—Sales:  1,234 ')).toBe('net sales 1 234')
  })
})
