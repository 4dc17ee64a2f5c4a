import { describe, expect, it } from 'vitest'
import { analyze, analyzeTokens, detectLanguage, SUPPORTED_LANGUAGES } from '../../src/text/analysis.js'

describe('analyze', () => {
  it('folds case, compatibility forms and diacritics: Café ≡ cafe', () => {
    for (const language of ['en', 'fr', 'de', 'xx']) {
      const expected = analyze('cafe', language)
      expect(expected).toHaveLength(1)
      for (const form of ['Café', 'CAFÉ', 'cafe\u0301', 'ＣＡＦＥ']) expect(analyze(form, language)).toEqual(expected)
    }
    expect(analyze('Straße', 'en')).toEqual(analyze('STRASSE', 'en'))
    expect(analyze('Ελληνικός', 'xx')).toEqual(['ελληνικοσ'])
  })

  it.each([
    ['en', ['running', 'runs', 'run'], 'run'],
    ['en', ['policies', 'policy'], 'polici'],
    ['fr', ['congés', 'congé', 'Conges'], 'cong'],
    ['fr', ['continuellement', 'continuel'], 'continuel'],
    ['de', ['Häuser', 'Haus', 'hauser'], 'haus'],
    ['de', ['Urlaubstage', 'Urlaubstag'], 'urlaubstag'],
    ['es', ['políticas', 'política', 'politica'], 'polit'],
    ['es', ['vacaciones', 'vacación'], 'vacacion'],
    ['it', ['politiche', 'politica'], 'polit'],
    ['it', ['dipendenti', 'dipendente'], 'dipendent'],
    ['pt', ['funcionários', 'funcionário'], 'funcionari'],
    ['nl', ['vakantiedagen', 'vakantiedag'], 'vakantiedag'],
    ['nl', ['werknemers', 'werknemer'], 'werknemer'],
  ])('stems %s words %j to %s', (language, words, stem) => {
    for (const word of words) expect(analyze(word, language)).toEqual([stem])
  })

  it('accepts regional and upper-case language codes', () => {
    expect(analyze('running policies', 'en-US')).toEqual(['run', 'polici'])
    expect(analyze('running policies', 'EN')).toEqual(['run', 'polici'])
    expect(analyze('congés', 'fr_FR')).toEqual(['cong'])
  })

  it('leaves words unstemmed, with no stop words, in languages it does not support', () => {
    expect(analyze('The running policies', 'xx')).toEqual(['the', 'running', 'policies'])
    expect(analyze('The running policies', 'ja')).toEqual(['the', 'running', 'policies'])
  })

  it('removes the stop words of the language, folded like terms', () => {
    expect(analyze('The policy of the company is in the handbook', 'en')).toEqual(['polici', 'compani', 'handbook'])
    expect(analyze('Le congé de la société et les salariés', 'fr')).toEqual(['cong', 'societ', 'salar'])
    expect(analyze('Der Urlaub und die Mitarbeiter über alles', 'de')).toEqual(['urlaub', 'mitarbeit'])
    expect(analyze('La política de la empresa', 'es')).toEqual(['polit', 'empres'])
    // "the" is an English stop word, not a French one.
    expect(analyze('the', 'fr')).toEqual(['the'])
    // A question's auxiliaries and adverbs are none of what it asks; a preposition or a negation may be.
    expect(analyze('Why does Pfizer report its revenue when it does?', 'en')).toEqual(['pfizer', 'report', 'revenu'])
    expect(analyze('Did Pfizer spin off Upjohn or not?', 'en')).toEqual(['pfizer', 'spin', 'off', 'upjohn', 'not'])
  })

  it('drops French and Italian elisions', () => {
    expect(analyze("l'entreprise d'État jusqu'à", 'fr')).toEqual(analyze('entreprise État à', 'fr'))
    expect(analyze("l'entreprise", 'fr')).toEqual(['entrepris'])
    expect(analyze("dell'azienda", 'it')).toEqual(analyze('azienda', 'it'))
    expect(analyze('John’s policy', 'en')).toEqual(analyze("John's policy", 'en'))
    expect(analyze("John's", 'en')).toEqual(['john'])
  })

  it('keeps numbers as terms', () => {
    expect(analyze('Growth was 4.5% in 2024', 'en')).toEqual(['growth', '4.5', '2024'])
    expect(analyze('$1,000,000 and 1000000', 'en')).toEqual(['1000000', '1000000'])
    expect(analyze('4,5 %', 'fr')).toEqual(['4,5'])
    expect(analyze('version v2.0 of COVID-19', 'en')).toEqual(['version', 'v2.0', 'covid', '19', 'covid19'])
    expect(analyze('the U.S.A. office', 'en')).toEqual(['usa', 'offic'])
  })

  it('segments words without spaces and ignores punctuation and over-long runs', () => {
    expect(analyze('東京都に住む', 'xx')).toEqual(['東京', '都', 'に', '住む'])
    expect(analyze('--- !!! ...', 'en')).toEqual([])
    expect(analyze(`key ${'x'.repeat(65)} value`, 'en')).toEqual(['key', 'valu'])
    expect(analyze('', 'en')).toEqual([])
  })

  it('makes names findable by their parts as well as whole', () => {
    // A dotted name is one word: its whole and its parts.
    expect(analyze('AMAZON.COM, INC.', 'en')).toEqual(['amazon.com', 'amazon', 'com', 'inc'])
    // Words joined by a hyphen or an ampersand: the parts, then the whole without the joiner.
    expect(analyze('Coca-Cola', 'en')).toEqual(['coca', 'cola', 'cocacola'])
    expect(analyze('AT&T', 'en')).toEqual(['t', 'att'])
    expect(analyze('R&D and SG&A, Form 10-K', 'en')).toEqual(['r', 'd', 'rd', 'sg', 'sga', 'form', '10', 'k', '10k'])
    // Letters and digits together: `FY2018` is also `fy` and `2018`; short mixes (`3M`, `Q2`) stay whole.
    expect(analyze('FY2018 3M Q2', 'en')).toEqual(['fy2018', 'fy', '2018', '3m', 'q2'])
    // A space, or numbers alone, do not join.
    expect(analyze('Johnson & Johnson, 2017-2019', 'en')).toEqual(['johnson', 'johnson', '2017', '2019'])
    // A query written either way meets the document's terms.
    expect(analyze('Cocacola amazon', 'en')).toEqual(['cocacola', 'amazon'])
  })

  it('gives the extra terms of a name the position of the word they come from', () => {
    expect(analyzeTokens('Coca-Cola sales', 'en')).toEqual([
      { term: 'coca', surface: 'Coca', position: 0 },
      { term: 'cola', surface: 'Cola', position: 1 },
      { term: 'cocacola', surface: 'Coca-Cola', position: 0 },
      { term: 'sale', surface: 'sales', position: 2 },
    ])
    expect(analyzeTokens('amazon.com sales', 'en').map((token) => [token.term, token.position])).toEqual([
      ['amazon.com', 0],
      ['amazon', 0],
      ['com', 0],
      ['sale', 1],
    ])
  })

  it('reports positions (stop words counted) and surface forms', () => {
    expect(analyzeTokens('The Annual leave of employees', 'en')).toEqual([
      { term: 'annual', surface: 'Annual', position: 1 },
      { term: 'leav', surface: 'leave', position: 2 },
      { term: 'employe', surface: 'employees', position: 4 },
    ])
    expect(analyzeTokens("l'hôtel", 'fr')).toEqual([{ term: 'hotel', surface: 'hôtel', position: 0 }])
  })
})

describe('detectLanguage', () => {
  it.each([
    ['en', 'Employees are entitled to twenty-five days of annual leave every year.'],
    ['fr', 'Les salariés ont droit à vingt-cinq jours de congés payés chaque année.'],
    ['de', 'Die Mitarbeiter haben Anspruch auf dreißig Urlaubstage im Jahr.'],
    ['es', 'Los empleados tienen derecho a veinticinco días de vacaciones al año.'],
    ['it', "I dipendenti hanno diritto a venticinque giorni di ferie all'anno."],
    ['pt', 'Os funcionários têm direito a vinte e cinco dias de férias por ano.'],
    ['nl', 'De werknemers hebben recht op vijfentwintig vakantiedagen per jaar.'],
  ])('recognises %s', (language, text) => {
    expect(detectLanguage(text)).toBe(language)
  })

  it('answers en when there is nothing to go on, and only supported languages', () => {
    expect(detectLanguage('')).toBe('en')
    expect(detectLanguage('12345 678 %')).toBe('en')
    expect(SUPPORTED_LANGUAGES).toEqual(expect.arrayContaining(['en', 'fr', 'de', 'es', 'it', 'pt', 'nl']))
    // Japanese is not supported: the answer is still one of ours.
    expect(SUPPORTED_LANGUAGES).toContain(detectLanguage('東京都に住んでいます。今日は天気がいいです。'))
  })
})
