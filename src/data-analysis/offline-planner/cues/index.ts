import { GROUP_TESTS, TEST_WORDS } from '../lexicon/statistics.js'
import { tokenise } from '../tokenise.js'
import { readAggregates, readRange } from './aggregates.js'
import { readCount } from './count.js'
import { readDates } from './dates.js'
import { readAll, readAny, readDistinct, readNegated, readNonEmpty, readShare, readUnsupported } from './flags.js'
import { opensList, opensYesNo } from './form.js'
import { readNumbers, readTopOne } from './numbers.js'
import { prepareQuestion } from './prepare.js'
import { locateQuotes, quotedIndexes } from './quotes.js'
import { readStatistics } from './statistics.js'
import { readOffset, readSuperlatives } from './superlatives.js'
import { readTest } from './tests.js'
import type { Cues, TestCue } from './types.js'

/**
 * The question's cues, read one after the other: a reader may rely on the cues read before it,
 * and the tokens any reader takes are never read as a column or a value.
 */
export function readCues(question: string): Cues {
  const prepared = prepareQuestion(question)
  const tokens = tokenise(prepared.text)
  const quoted = locateQuotes(prepared.text, tokens)
  const quotedSpans = quotedIndexes(quoted)
  const used = new Set<number>()
  const take = (indexes: readonly number[]) => {
    for (const index of indexes) used.add(index)
  }

  const asksYesNo = opensYesNo(question, tokens)
  const list = !asksYesNo && opensList(tokens)
  const count = readCount(tokens)
  take(count.used)
  // "Combien de villes y a-t-il ?" asks for a number, not yes or no
  const boolean = asksYesNo && !(count.found >= 0 && count.found <= 1)

  const statistics = readStatistics(tokens, quotedSpans)
  take(statistics.used)
  const test = readTest(tokens, statistics.found.requested)
  take(test.used)
  const superlativeWords = readSuperlatives(tokens, quotedSpans)
  take(superlativeWords.used)
  const { aggregates, superlatives } = readRange(tokens, readAggregates(tokens, quotedSpans), superlativeWords.found)
  const offset = readOffset(tokens, superlatives)
  take(offset.used)
  const distinct = readDistinct(tokens)
  take(distinct.used)

  const numbers = readNumbers(tokens, { quoted: quotedSpans, used, superlatives, list, boolean })
  take(numbers.used)
  const topOne = numbers.found.limit === null && (list || superlatives.length > 0) ? readTopOne(tokens, used) : null
  if (topOne) take(topOne.used)

  const dates = readDates(tokens, prepared.dates)
  take(dates.used)
  const share = readShare(tokens)
  take(share.used)
  return {
    tokens,
    boolean,
    list,
    count: count.found,
    aggregates,
    distinct: distinct.found,
    all: readAll(tokens),
    any: readAny(tokens),
    superlatives,
    comparators: numbers.found.comparators,
    between: numbers.found.between,
    closest: numbers.found.closest,
    limit: numbers.found.limit ?? topOne?.found ?? null,
    position: numbers.found.position,
    used,
    strayNumbers: numbers.found.strayNumbers,
    // The words of a test the planner computes are not what it declines.
    unsupported: readUnsupported(tokens, answeredWords(test.found)),
    nonEmpty: readNonEmpty(tokens),
    negated: readNegated(tokens),
    offset: offset.found,
    quoted,
    dates: dates.found,
    share: share.found,
    statistics: statistics.found,
    slots: prepared.slots,
    decimals: prepared.decimals,
    slotOptions: prepared.slotOptions,
    test: test.found,
  }
}

/** The words of the unsupported list a test the planner computes answers: its own name, p-values, significance. */
function answeredWords(test: TestCue | null): ReadonlySet<string> {
  if (!test || test.kind === 'unnamed') return new Set()
  const own = GROUP_TESTS.find((group) => group.kind === test.kind)?.answers ?? []
  return new Set([...TEST_WORDS, ...own])
}
