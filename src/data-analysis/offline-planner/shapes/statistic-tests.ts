import { type ColumnSchema, nullIsAffirmative, type Verdict } from '../../types.js'
import { wordsOf } from '../cues/slots.js'
import type { Grounding } from '../grounding/grounding.js'
import type { StatisticItem, StatisticsTest } from '../intent.js'
import {
  CORRELATION_VERDICT_WORDS,
  DEFAULT_VERDICTS,
  GROUP_VERDICT_WORDS,
  NORMALITY_VERDICT_WORDS,
  TEST_STATISTICS,
  TRUE_WORDS,
} from '../lexicon/statistics.js'

/**
 * The items of a test (docs/data-analysis.md, "Tests"): a correlation's p-value and verdict over
 * the correlation's columns (one correlation), a normality test's over its one column; a verdict
 * gets the answers its slot offers, or plain ones, and must be about what the test tests. Items
 * of no test pass unchanged.
 */
export function testedItems(
  g: Grounding,
  items: readonly StatisticItem[],
): { items: StatisticItem[]; test: StatisticsTest | null } | string {
  const cue = g.cues.test
  const testItems = items.filter((item) => TEST_STATISTICS.includes(item.stat))
  if (!cue || cue.kind === 'unnamed' || testItems.length === 0) return { items: [...items], test: null }
  if (cue.alpha === null) return 'the question states two significance levels'
  // Its p-value depends on the normal law compared with, which the question does not say: only its verdict.
  if (cue.kind === 'kolmogorov' && testItems.some((item) => item.stat !== 'verdict'))
    return "the Kolmogorov-Smirnov test's p-value and statistic depend on the normal law it compares with; only its verdict is given"
  const correlations = items.filter((item) => item.stat === 'correlation')
  let columns: readonly ColumnSchema[]
  if (cue.kind === 'correlation') {
    const [only, other] = correlations
    if (!only || other) return 'a correlation test needs exactly one correlation'
    columns = only.columns
  } else {
    if (correlations.length > 0) return 'a normality test and a correlation are two questions'
    const tested = new Set(testItems.map((item) => item.columns[0]))
    if (tested.size !== 1) return 'a normality test is computed on one column at a time'
    columns = testItems[0]?.columns ?? []
  }
  const verdict = chosenVerdict(g, cue.kind)
  if (typeof verdict === 'string') return verdict
  return {
    items: items.map((item) =>
      TEST_STATISTICS.includes(item.stat)
        ? { ...item, columns, ...(item.stat === 'verdict' ? { verdict } : {}) }
        : item,
    ),
    test: { kind: cue.kind, alpha: cue.alpha, alphaSaid: cue.alphaSaid },
  }
}

/**
 * The verdict a test gives: the answers its slot offers (two by the p-value, or several by the
 * question's rules), else plain ones; a reason to decline when the slot's answers are not about
 * what the test decides, or its rules read r and the test has none.
 */
export function chosenVerdict(g: Grounding, kind: StatisticsTest['kind']): Verdict | string {
  const slotOptions = g.cues.slotOptions
  const verdictSlot = g.cues.slots.find((slot) => slotOptions.has(slot))
  const verdict = (verdictSlot ? slotOptions.get(verdictSlot) : undefined) ?? DEFAULT_VERDICTS[kind]
  if ('cases' in verdict) {
    // Rules on r are a correlation's; the other tests have no r.
    const onR = verdict.cases.some((c) => c.when.some((condition) => condition.quantity !== 'p'))
    if (onR && kind !== 'correlation')
      return `the answer format's "${verdictSlot}" is decided by a correlation, and the question asks for a ${kind} test`
  } else if (!verdictAbout(kind, verdict, verdictSlot))
    return `the answer format's "${verdictSlot}" is a verdict the ${kind} test does not give`
  return verdict
}

/** Whether a verdict's affirmative answer (or, for true/false, its slot's name) says what the test tests: normality, or a correlation's significance. */
function verdictAbout(
  kind: StatisticsTest['kind'],
  verdict: { readonly affirmative: string },
  slot: string | undefined,
): boolean {
  const words = new Set([
    ...wordsOf(verdict.affirmative),
    ...(TRUE_WORDS.has(verdict.affirmative.toLowerCase()) && slot ? wordsOf(slot) : []),
  ])
  const about =
    kind === 'correlation'
      ? CORRELATION_VERDICT_WORDS
      : nullIsAffirmative(kind)
        ? NORMALITY_VERDICT_WORDS
        : GROUP_VERDICT_WORDS
  return [...about].some((word) => words.has(word))
}
