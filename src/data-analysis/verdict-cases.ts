import type { VerdictCase, VerdictCondition } from './types.js'

/** The values a ruled verdict reads: the test's p-value and, for a correlation, r. */
export interface VerdictValues {
  readonly p: number
  readonly r: number
}

/**
 * A ruled verdict's answer for a test's values (docs/data-analysis.md, "Tests"): the answer of the
 * case whose conditions all hold, else the otherwise case's; null when a value a condition needs is
 * missing (a test that could not be computed gives no verdict). The planner keeps only rules that
 * give one answer for every value (`coversEveryValue`), so the first case that holds is the one.
 */
export function verdictAnswer(cases: readonly VerdictCase[], values: VerdictValues): string | null {
  const needed = new Set(cases.flatMap((c) => c.when.map((condition) => condition.quantity)))
  if ([...needed].some((quantity) => !Number.isFinite(quantityValue(quantity, values)))) return null
  const ruled = cases.find((c) => c.when.length > 0 && c.when.every((condition) => holds(condition, values)))
  return (ruled ?? cases.find((c) => c.when.length === 0))?.answer ?? null
}

/**
 * Whether the cases give exactly one answer for every p-value and r: tried at each threshold the
 * rules name, just below and above it, and at the ends. Rules that leave a value without an answer
 * ("significant if p < 0.05 and |r| ≥ 0.5", "not significant if p ≥ 0.05": p 0.01, r 0.2) or give
 * it two are not read, and the verdict is declined.
 */
export function coversEveryValue(cases: readonly VerdictCase[]): boolean {
  const conditions = cases.flatMap((c) => c.when)
  const around = (values: number[]) => values.flatMap((v) => [v - 1e-9, v, v + 1e-9])
  const pThresholds = conditions.filter((c) => c.quantity === 'p').map((c) => c.value)
  const rThresholds = conditions
    .filter((c) => c.quantity !== 'p')
    .flatMap((c) => (c.quantity === 'r' ? [c.value] : [c.value, -c.value]))
  const ps = around([0, 1, ...pThresholds]).filter((p) => p >= 0 && p <= 1)
  const rs = around([-1, 0, 1, ...rThresholds]).filter((r) => r >= -1 && r <= 1)
  const otherwise = cases.some((c) => c.when.length === 0)
  for (const p of ps) {
    for (const r of rs) {
      const held = cases.filter((c) => c.when.length > 0 && c.when.every((condition) => holds(condition, { p, r })))
      const answers = new Set(held.map((c) => c.answer))
      if (answers.size > 1 || (answers.size === 0 && !otherwise)) return false
    }
  }
  return true
}

function quantityValue(quantity: VerdictCondition['quantity'], values: VerdictValues): number {
  return quantity === 'p' ? values.p : quantity === 'r' ? values.r : Math.abs(values.r)
}

function holds({ quantity, op, value }: VerdictCondition, values: VerdictValues): boolean {
  const x = quantityValue(quantity, values)
  switch (op) {
    case '<':
      return x < value
    case '<=':
      return x <= value
    case '>':
      return x > value
    case '>=':
      return x >= value
  }
}
