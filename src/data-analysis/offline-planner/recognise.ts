import type { ResultType, TableSchema } from '../types.js'
import { columnlessPlan } from './columnless-plan.js'
import { qualifierReadForHead } from './compound-head.js'
import { slotsNameStatistics } from './cues/slots.js'
import type { Cues } from './cues/types.js'
import { ground } from './grounding/index.js'
import { guessedEntity } from './guessed-entity.js'
import {
  ASKING_VERBS,
  ASKS_NAME_OPENERS,
  DEFINITE_ARTICLES,
  FRENCH_WHICH_OPENERS,
  FRENCH_WHICH_VERBS,
  NAME_NOUNS,
} from './lexicon/question-forms.js'
import { numericStandIn } from './numeric-stand-in.js'
import { rankDirection } from './rank-direction.js'
import { declined, isDeclined, type Recognition } from './recognition.js'
import { SHAPES } from './shapes/index.js'
import { tiedColumns } from './tied-columns.js'
import { tiedIdentifierAnswer } from './tied-identifier.js'
import { tiedValue } from './tied-values.js'
import { unreadName } from './unread-name.js'
import { unreadNegation } from './unread-negation.js'
import { wordMapping } from './word-mapping.js'

/**
 * From the question's cues to one Intent (filters + computation + yes/no check), or the reason
 * none fits: the question is grounded on a table, then each shape is tried in turn.
 */
function recogniseShape(cues: Cues, tables: readonly TableSchema[]): Recognition {
  const grounding = ground(cues, tables)
  if (isDeclined(grounding)) return grounding
  for (const recognise of SHAPES) {
    const recognition = recognise(grounding)
    if (recognition?.kind === 'intent') {
      // what the plan would leave out of the question: decline instead (docs/data-analysis.md, "When it declines")
      const unsure =
        tiedIdentifierAnswer(grounding, recognition.intent) ??
        unreadNegation(grounding, recognition.intent) ??
        tiedColumns(grounding, recognition.intent) ??
        qualifierReadForHead(grounding, recognition.intent) ??
        unreadName(grounding, recognition.intent) ??
        columnlessPlan(grounding, recognition.intent) ??
        numericStandIn(grounding, recognition.intent) ??
        guessedEntity(grounding, recognition.intent) ??
        tiedValue(grounding, recognition.intent) ??
        rankDirection(grounding, recognition.intent)
      if (unsure) return unsure
      return { ...recognition, mapping: wordMapping(grounding, recognition.intent) }
    }
    if (recognition) return recognition
  }
  return declined(
    'the question does not match a supported shape (count, sum, average, median, minimum/maximum, most frequent, top N, list, yes/no)',
  )
}

/** What can fill an answer format's statistic slots: one number, or named values. */
const STATISTIC_RESULTS: ReadonlySet<ResultType> = new Set(['number', 'values'])

/** "Which …", "Who …", "What is the name of …" (or French "Quel …" without a verb after it). */
function asksForName(cues: Cues): boolean {
  const { tokens } = cues
  const first = tokens[0]?.text ?? ''
  // "If I …, where should I move?": "where" before a verb asks after a clause; "the countries where
  // groceries are …" is a relative clause and asks nothing
  const whereAsked = tokens.some((t, i) => t.text === 'where' && ASKING_VERBS.has(tokens[i + 1]?.text ?? ''))
  return (
    ASKS_NAME_OPENERS.has(first) ||
    whereAsked ||
    (FRENCH_WHICH_OPENERS.has(first) && !FRENCH_WHICH_VERBS.has(tokens[1]?.text ?? '')) ||
    tokens.slice(0, 6).some((t, i) => NAME_NOUNS.has(t.text) && DEFINITE_ARTICLES.has(tokens[i - 1]?.text ?? ''))
  )
}

/**
 * A "which/who/where …" or "what is the name of …" question wants a category: an aggregate
 * number would answer another question, so the planner declines instead.
 */
export function recognise(cues: Cues, tables: readonly TableSchema[]): Recognition {
  const recognition = recogniseShape(cues, tables)
  // An answer format whose every slot is a statistic wants numbers: a list or a name read from the
  // question (its most frequent values, a ranked group) would fill none of them.
  if (
    recognition.kind === 'intent' &&
    slotsNameStatistics(cues.slots) &&
    !STATISTIC_RESULTS.has(recognition.intent.resultType)
  ) {
    return declined(
      `the answer format asks for statistics, and the question was read as a ${recognition.intent.resultType}`,
    )
  }
  if (recognition.kind !== 'intent' || recognition.intent.check || recognition.intent.shape.kind !== 'scalar')
    return recognition
  if (asksForName(cues) && recognition.intent.resultType === 'number') {
    return declined('the question asks which one, but the planner could only compute a number for it')
  }
  return recognition
}
