import {
  DAGOSTINO_WORDS,
  DEFAULT_SIGNIFICANCE_LEVEL,
  DESIGN_WORDS,
  GROUP_TESTS,
  KOLMOGOROV_WORDS,
  LEVEL_WORDS,
  MAX_SIGNIFICANCE_LEVEL,
  NORMALITY_PHRASES,
  OTHER_NORMALITY_TEST_WORDS,
  OTHER_T_TEST_PHRASES,
  SHAPIRO_WORDS,
  SIGNIFICANCE_WORDS,
  TAIL_WORDS,
} from '../lexicon/statistics.js'
import type { Token } from '../tokenise.js'
import { findPhrase } from './phrases.js'
import type { Reading, StatisticCue, TestCue } from './types.js'

/**
 * The test a question asks for (docs/data-analysis.md, "Tests"): a normality test it names
 * (Shapiro-Wilk, D'Agostino's normaltest, Kolmogorov-Smirnov), or the significance of a correlation it asks for
 * ("its p-value", "is the correlation significant"), with the significance level it states. The
 * level's numbers and the "two" of "two-tailed" are taken, so that neither becomes a condition.
 */
export function readTest(tokens: readonly Token[], requested: readonly StatisticCue[]): Reading<TestCue | null> {
  const words = new Set(tokens.map((token) => token.text))
  const has = (set: ReadonlySet<string>) => [...set].some((word) => words.has(word))
  const normality =
    findPhrase(tokens, NORMALITY_PHRASES) >= 0 || has(SHAPIRO_WORDS) || has(DAGOSTINO_WORDS) || has(KOLMOGOROV_WORDS)
  const correlation = requested.some((cue) => cue.stat === 'correlation')
  const pValue = requested.some((cue) => cue.stat === 'pvalue')
  let kind: TestCue['kind'] | null = null
  const between = groupTest(tokens)
  if (between !== undefined) {
    // A test between groups named with a normality test or another test is two questions: not read.
    if (between === null || normality) return { found: null, used: [] }
    kind = between
  } else if (normality) {
    const tests = [
      ['shapiro', SHAPIRO_WORDS],
      ['dagostino', DAGOSTINO_WORDS],
      ['kolmogorov', KOLMOGOROV_WORDS],
      ['unnamed', OTHER_NORMALITY_TEST_WORDS],
    ] as const
    const named = tests.filter(([, testWords]) => has(testWords))
    kind = named.length === 1 && named[0] ? named[0][0] : 'unnamed'
  } else if (correlation && (pValue || has(SIGNIFICANCE_WORDS))) kind = 'correlation'
  if (kind === null) return { found: null, used: [] }

  const used: number[] = []
  const levels = new Set<number>()
  const isLevel = (value: number | null): value is number =>
    value !== null && value > 0 && value <= MAX_SIGNIFICANCE_LEVEL
  for (const [index, token] of tokens.entries()) {
    if (isLevel(token.number) && afterLevelWord(tokens, index)) levels.add(token.number)
    if (TAIL_WORDS.has(tokens[index + 1]?.text ?? '') && token.number !== null) used.push(index)
    // "two-sample", "one-way": the test's design, not a number of rows.
    if (DESIGN_WORDS.has(tokens[index + 1]?.text ?? '') && token.number !== null) used.push(index)
  }
  // The level said once is the level wherever it is repeated ("… greater than or equal to 0.05").
  for (const [index, token] of tokens.entries()) if (isLevel(token.number) && levels.has(token.number)) used.push(index)
  const [level] = levels
  return {
    found: {
      kind,
      // Two levels ("0.05 … 0.01") leave the verdict undecided: null, and the planner declines it.
      alpha: levels.size === 0 ? DEFAULT_SIGNIFICANCE_LEVEL : levels.size === 1 ? (level as number) : null,
      alphaSaid: levels.size > 0,
    },
    used,
  }
}

/** Tokens before a number in which a word saying it is the level must be ("alpha of 0.05", "p-value is less than 0.05"). */
const LEVEL_WINDOW = 8

/** Whether a number follows a word of the significance level closely: a 0.1 elsewhere may be a condition. */
function afterLevelWord(tokens: readonly Token[], index: number): boolean {
  for (let i = Math.max(0, index - LEVEL_WINDOW); i < index; i++) {
    const text = tokens[i]?.text ?? ''
    if (LEVEL_WORDS.has(text) || (text === 'value' && tokens[i - 1]?.text === 'p')) return true
  }
  return false
}

/**
 * The test between groups the question names: undefined when it names none, null when it names
 * two (a t-test and an ANOVA) or a t-test of another design (paired, one-sample).
 */
function groupTest(tokens: readonly Token[]): 'ttest' | 'welch' | 'anova' | 'chisquare' | null | undefined {
  const named = GROUP_TESTS.filter((test) => findPhrase(tokens, test.phrases) >= 0).map((test) => test.kind)
  if (named.length === 0) return undefined
  // Welch's test is a t-test: named with it, it says which.
  const kinds = new Set(named.includes('welch') ? named.filter((kind) => kind !== 'ttest') : named)
  if (kinds.size !== 1) return null
  const [kind] = kinds
  if ((kind === 'ttest' || kind === 'welch') && findPhrase(tokens, OTHER_T_TEST_PHRASES) >= 0) return null
  // A two-way ANOVA has two grouping columns: not computed.
  if (
    kind === 'anova' &&
    tokens.some((token, i) => token.number !== null && token.number > 1 && tokens[i + 1]?.text === 'way')
  )
    return null
  return kind ?? null
}
