import { describe, expect, it } from 'vitest'
import { kindsNamedIn } from '../../src/text/document-kinds.js'

describe('kindsNamedIn', () => {
  it.each([
    ['What was capex in the FY2018 10-K?', 'en', ['annual report']],
    ['According to the 10-Q, what was revenue?', 'en', ['quarterly report']],
    ['What did the 8-K filed in May say?', 'en', ['current report']],
    ['Summarise the latest annual report', 'en', ['annual report']],
    ['What did the earnings release say about guidance?', 'en', ['earnings release']],
    ['Which invoices are unpaid?', 'en', ['invoice']],
    ['What was decided in the minutes of the May board meeting?', 'en', ['minutes']],
    ['Le rapport annuel 2022 mentionne-t-il la dette ?', 'fr', ['annual report']],
    ['Quelles factures sont impayées ?', 'fr', ['invoice']],
    ['Was steht im Protokoll der Sitzung?', 'de', ['minutes']],
    ['¿Qué dice el informe trimestral?', 'es', ['quarterly report']],
  ])('reads %j (%s)', (question, language, kinds) => {
    expect(kindsNamedIn(question, language)).toEqual(kinds)
  })

  it('names no kind for numbers of minutes, letters of credit or a question without a document word', () => {
    expect(kindsNamedIn('The call lasted 45 minutes', 'en')).toEqual([])
    expect(kindsNamedIn('How large are the letters of credit?', 'en')).toEqual([])
    expect(kindsNamedIn('What was revenue in 2022?', 'en')).toEqual([])
  })

  it("reads a language's own words only for that language, English and form numbers for all", () => {
    expect(kindsNamedIn('Rechnung', 'en')).toEqual([])
    expect(kindsNamedIn('die letzte Rechnung und der 10-K', 'de')).toEqual(['annual report', 'invoice'])
  })
})
