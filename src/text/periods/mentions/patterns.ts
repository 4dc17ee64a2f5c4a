/** Regex pieces the period patterns share: word edges, fiscal words, years. */
export const BEFORE = '(?<![\\p{L}\\d])'
export const AFTER = '(?![\\p{L}\\d])'

export const FISCAL_WORD =
  '(?:fiscal(?:\\s+year)?|FY|financial\\s+year|exercice(?:\\s+fiscal)?|Gesch[äa]ftsjahr(?:es)?|ejercicio(?:\\s+fiscal)?|a[ñn]o\\s+fiscal)'
// 2023 · '23 (only after FY or an apostrophe: a bare 23 is a number)
export const YEAR_4 = '(\\d{4})'

/** A 2-digit year (`23`) in this century, a 4-digit one as is. */
export function fullYear(text: string): number {
  const digits = text.replace(/\D/g, '')
  return digits.length === 2 ? 2000 + Number(digits) : Number(digits)
}

export const isFiscal = (text: string): boolean => new RegExp(FISCAL_WORD, 'iu').test(text)
