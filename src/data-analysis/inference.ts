import type { ColumnType } from './types.js'

/**
 * Column type inference from a sample of a column's non-empty cells (as text), and the DuckDB
 * expression that converts the whole column. The conversion is checked over every row before it
 * is kept (see table-build.ts): a value that does not convert turns the column back into text.
 */
export interface ColumnPlan {
  readonly type: ColumnType
  readonly unit: 'percent' | 'currency' | null
  /** SQL over `v` (the raw cell: NULL when empty, maybe with surrounding blanks) giving the typed value. */
  readonly convert: (v: string) => string
  readonly numeric: boolean
  /** The plan to try when this one loses a non-empty cell (integer → number); text when absent. */
  readonly fallback?: ColumnPlan
}

export interface InferenceHints {
  /** The file uses `;` as delimiter, or the language is French: ambiguous `1,234` is a decimal comma, `03/04` is day first. */
  readonly european: boolean
}

const CURRENCY_SYMBOLS = '$€£¥₹₩₽₺'
const CURRENCY_CODES = 'USD|EUR|GBP|JPY|CHF|CAD|AUD|CNY|INR'
const CURRENCY = new RegExp(
  `^[-+]?\\s*([${CURRENCY_SYMBOLS}]|(${CURRENCY_CODES})\\s)|([${CURRENCY_SYMBOLS}]|\\s(${CURRENCY_CODES}))$`,
)
/** Dollar prefixes written before the sign: `6,00 US$`, `CA$12`. */
const DOLLAR_PREFIXES = 'US|CA|AU|NZ|HK|R'
const STRIP_CURRENCY = new RegExp(`(${DOLLAR_PREFIXES})?[${CURRENCY_SYMBOLS}]|\\b(${CURRENCY_CODES})\\b`, 'g')
/** Digits with a leading zero (`007`, `0123`): an identifier or a code, whose zeros a number would lose. */
const LEADING_ZERO_CODE = /^[-+]?0\d+$/
/** More significant digits than a double holds exactly: an identifier, not a quantity. */
const TOO_MANY_DIGITS = /^[-+]?\d{16,}$/
const SPACES = /[\s\u00a0\u202f]/g
/** `1,234.5`, `1 234.5`, `0.25`, `3504.` (a trailing point, as some exports write floats), and the scientific notation tools write (`8.87e-05`, `1E6`). */
const DOT_DECIMAL = /^[-+]?(\d{1,3}(,\d{3})+|\d{1,3}(['\u00a0\u202f ]\d{3})+|\d+)?(\.\d*)?([eE][-+]?\d{1,3})?$/
const COMMA_DECIMAL = /^[-+]?(\d{1,3}(\.\d{3})+|\d{1,3}(['\u00a0\u202f ]\d{3})+|\d+)?(,\d+)?$/
const BOOLEAN = /^(true|false|vrai|faux)$/i
const ISO_DATE = /^\d{4}-\d{1,2}-\d{1,2}$/
const ISO_TIMESTAMP = /^\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/
const NUMERIC_DATE = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})$/

/**
 * Cells that say a value is missing (pandas' default `na_values`): in a column of numbers they are
 * empty cells, not text that makes the column text ("null" on one row of prices, "NaN", "N/A").
 * A column of text keeps them as they are written.
 */
export const NA_MARKERS: ReadonlySet<string> = new Set([
  '#N/A',
  '#N/A N/A',
  '#NA',
  '-1.#IND',
  '-1.#QNAN',
  '-NaN',
  '-nan',
  '1.#IND',
  '1.#QNAN',
  '<NA>',
  'N/A',
  'NA',
  'NULL',
  'NaN',
  'None',
  'n/a',
  'nan',
  'null',
])

/** SQL: the trimmed cell `v` is one of NA_MARKERS. */
export function isNaMarkerSql(v: string): string {
  return `trim(${v}) IN (${[...NA_MARKERS].map((marker) => `'${marker}'`).join(', ')})`
}

/** Text: trimmed, NULL when blank (as the ingestion parser shows cells). */
export const TEXT_PLAN: ColumnPlan = {
  type: 'text',
  unit: null,
  convert: (v) => `nullif(trim(${v}), '')`,
  numeric: false,
}
const text = TEXT_PLAN

function hasDigit(value: string): boolean {
  return /\d/.test(value)
}

/** The cell without currency marks, percent sign and spaces (the number's own characters). */
function numberCore(value: string): string {
  return value
    .replace(STRIP_CURRENCY, '')
    .replace('%', '')
    .replace(SPACES, (space, offset: number, all: string) =>
      // A space between digit groups is a thousands separator: keep it for the grouping check.
      /\d/.test(all[offset - 1] ?? '') && /\d{3}/.test(all.slice(offset + 1, offset + 4)) ? space : '',
    )
}

function sqlStrip(v: string, commaDecimal: boolean): string {
  const dollars = `(${DOLLAR_PREFIXES})\\$`
  const removed = commaDecimal
    ? `${dollars}|[\\s\\x{00a0}\\x{202f}.''%${CURRENCY_SYMBOLS}]|${CURRENCY_CODES}`
    : `${dollars}|[\\s\\x{00a0}\\x{202f},''%${CURRENCY_SYMBOLS}]|${CURRENCY_CODES}`
  const stripped = `regexp_replace(${v}, '${removed}', '', 'g')`
  return commaDecimal ? `replace(${stripped}, ',', '.')` : stripped
}

/** The type and conversion of a column from a sample of its non-empty cells; text when nothing else fits. */
export function inferColumn(sample: readonly string[], hints: InferenceHints): ColumnPlan {
  const trimmed = sample.map((value) => value.trim()).filter((value) => value !== '')
  // Missing-value markers say nothing of the type; a column of nothing else stays text.
  const values = trimmed.filter((value) => !NA_MARKERS.has(value))
  if (values.length === 0) return text
  if (values.every((value) => BOOLEAN.test(value))) {
    return {
      type: 'boolean',
      unit: null,
      numeric: false,
      convert: (v) =>
        `CASE WHEN lower(trim(${v})) IN ('true','vrai') THEN true WHEN lower(trim(${v})) IN ('false','faux') THEN false END`,
    }
  }
  if (values.every((value) => hasDigit(value))) {
    const cores = values.map(numberCore)
    if (cores.some((core) => LEADING_ZERO_CODE.test(core) || TOO_MANY_DIGITS.test(core))) return text
    const dot = cores.every((core) => DOT_DECIMAL.test(core) && hasDigit(core))
    const comma = cores.every((core) => COMMA_DECIMAL.test(core) && hasDigit(core))
    if (dot || comma) {
      const commaDecimal = comma && (!dot || hints.european)
      const percent = values.every((value) => value.endsWith('%'))
      const currency = !percent && values.every((value) => CURRENCY.test(value))
      const unit = percent ? 'percent' : currency ? 'currency' : null
      const number: ColumnPlan = {
        type: 'number',
        unit,
        numeric: true,
        // Plain numbers skip the regular expression (most cells of most columns).
        // A missing-value marker is empty ("NaN" would otherwise be read as a not-a-number double).
        convert: (v) =>
          `CASE WHEN ${isNaMarkerSql(v)} THEN NULL ELSE ${
            commaDecimal
              ? `TRY_CAST(${sqlStrip(v, true)} AS DOUBLE)`
              : `coalesce(TRY_CAST(${v} AS DOUBLE), TRY_CAST(${sqlStrip(v, false)} AS DOUBLE))`
          } END`,
      }
      const mark = commaDecimal ? ',' : '.'
      if (cores.some((core) => core.includes(mark) || /[eE]/.test(core))) return number
      // No decimal part in the sample: integers, unless a later cell has one (then the number plan).
      return {
        type: 'integer',
        unit,
        numeric: true,
        fallback: number,
        convert: (v) =>
          commaDecimal
            ? `CASE WHEN NOT contains(${v}, ',') THEN TRY_CAST(${sqlStrip(v, true)} AS BIGINT) END`
            : `CASE WHEN NOT contains(${v}, '.') THEN coalesce(TRY_CAST(${v} AS BIGINT), TRY_CAST(${sqlStrip(v, false)} AS BIGINT)) END`,
      }
    }
    if (values.every((value) => ISO_DATE.test(value))) {
      return { type: 'date', unit: null, numeric: false, convert: (v) => `TRY_CAST(${v} AS DATE)` }
    }
    if (values.every((value) => ISO_TIMESTAMP.test(value))) {
      return {
        type: 'timestamp',
        unit: null,
        numeric: false,
        convert: (v) => `TRY_CAST(regexp_replace(trim(${v}), '(Z|[+-]\\d{2}:?\\d{2})$', '') AS TIMESTAMP)`,
      }
    }
    const parts = values.map((value) => NUMERIC_DATE.exec(value))
    if (parts.every((match) => match !== null)) {
      const firstOver12 = parts.some((match) => Number(match?.[1]) > 12)
      const secondOver12 = parts.some((match) => Number(match?.[3]) > 12)
      if (!(firstOver12 && secondOver12)) {
        const dayFirst = firstOver12 || (!secondOver12 && (hints.european || parts.some((m) => m?.[2] === '.')))
        const separator = parts[0]?.[2] ?? '/'
        const year = (parts[0]?.[4]?.length ?? 4) === 2 ? '%y' : '%Y'
        const format = dayFirst ? `%d${separator}%m${separator}${year}` : `%m${separator}%d${separator}${year}`
        return {
          type: 'date',
          unit: null,
          numeric: false,
          convert: (v) => `CAST(try_strptime(trim(${v}), '${format}') AS DATE)`,
        }
      }
    }
  }
  return text
}
