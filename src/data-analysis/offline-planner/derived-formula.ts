import { escapeRegex } from '../../lib/regex.js'
import type { ColumnSchema } from '../types.js'
import { quoteIdentifier } from '../types.js'
import { isNumeric } from './columns.js'
import { columnNamed } from './named-column.js'

/**
 * A new column's formula as the question writes it ("Volatility = (High Price - Low Price) / Open
 * Price"): numeric columns and numbers joined by + − × ÷ and parentheses, as SQL (a division by
 * zero gives an empty cell, as the other definitions). An operand is a column's exact name, or its
 * name followed by one more word ("High Price" for `High`); a parenthesis of other words is a comment.
 * Anything else and the formula is not read.
 */

export interface Formula {
  readonly expression: string
  readonly operands: readonly ColumnSchema[]
  /** Where the formula is in the question, from the new name to its end. */
  readonly start: number
  readonly end: number
}

type Token = string

/** An operand: a column, or a number. */
function operandSql(phrase: string, columns: readonly ColumnSchema[], used: ColumnSchema[]): string | null {
  const text = phrase.trim()
  if (/^\d+(?:\.\d+)?$/.test(text)) return text
  const column =
    columnNamed(text, columns) ?? (/\s\S+$/.test(text) ? columnNamed(text.replace(/\s+\S+$/, ''), columns) : null)
  if (!column || !isNumeric(column)) return null
  used.push(column)
  return quoteIdentifier(column.name)
}

/** Recursive descent over the tokens: sum := product (± product)*, product := factor (×÷ factor)*, factor := operand | (sum). */
function parse(tokens: readonly Token[], columns: readonly ColumnSchema[], used: ColumnSchema[]): string | null {
  let at = 0
  const factor = (): string | null => {
    const token = tokens[at++]
    if (token === undefined) return null
    if (token === '(') {
      const inner = sum()
      return tokens[at++] === ')' && inner !== null ? `(${inner})` : null
    }
    return /^[()+\-*/]$/.test(token) ? null : operandSql(token, columns, used)
  }
  const product = (): string | null => {
    let left = factor()
    while (left !== null && (tokens[at] === '*' || tokens[at] === '/')) {
      const op = tokens[at++]
      const right = factor()
      if (right === null) return null
      left = op === '/' ? `${left} / NULLIF(${right}, 0)` : `${left} * ${right}`
    }
    return left
  }
  const sum = (): string | null => {
    let left = product()
    while (left !== null && (tokens[at] === '+' || tokens[at] === '-')) {
      const op = tokens[at++]
      const right = product()
      if (right === null) return null
      left = `${left} ${op} ${right}`
    }
    return left
  }
  const expression = sum()
  return expression !== null && at === tokens.length ? expression : null
}

/** The formula `name = …` in the question, up to the end of its sentence, when every operand is read. */
export function formulaOf(question: string, name: string, columns: readonly ColumnSchema[]): Formula | null {
  const found = new RegExp(`["'“‘]?${escapeRegex(name)}["'”’]?\\s*=\\s*([^.;\\n]+(?:\\.\\d[^.;\\n]*)*)`, 'iu').exec(
    question,
  )
  if (!found?.[1]) return null
  // A parenthesis of words that name no operand is a comment ("+ 1 (for a sibling or spouse)"): left out.
  const uncommented = found[1].replace(/\(([^()+\-*/]*)\)/g, (group: string, inner: string) =>
    operandSql(inner, columns, []) === null ? ' ' : group,
  )
  const tokens = uncommented
    .replace(/×/g, '*')
    .replace(/÷/g, '/')
    .split(/([()+\-*/])/)
    .map((token) => token.trim())
    .filter((token) => token !== '')
  const operands: ColumnSchema[] = []
  const expression = parse(tokens, columns, operands)
  if (expression === null || operands.length === 0) return null
  return { expression, operands, start: found.index, end: found.index + found[0].length }
}
