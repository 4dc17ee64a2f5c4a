import type { ColumnSchema } from '../../types.js'
import { numericOf } from '../column-traits.js'
import { type ColumnMention, isNumeric } from '../columns.js'
import type { AggregateCue, Cues, Superlative } from '../cues/types.js'
import { NAME_HEADER } from '../lexicon/headers.js'
import { BY_WORDS, NAME_WORDS, WHICH_GAP_WORDS, WHICH_WORDS, WHO_WORDS } from '../lexicon/question-forms.js'
import { TOP_WORDS } from '../lexicon/superlatives.js'
import { FILLERS } from '../lexicon/vague-words.js'
import type { Token } from '../tokenise.js'
import type { Grounding } from './grounding.js'

/** The parts the question's remaining words play, once the conditions took theirs. */
export type Roles = Omit<
  Grounding,
  | 'cues'
  | 'tokens'
  | 'table'
  | 'mentions'
  | 'valueMentions'
  | 'filters'
  | 'valueFilters'
  | 'count'
  | 'aggregates'
  | 'checkComparator'
  | 'checkMeasure'
  | 'countComparator'
  | 'rowsPerGroup'
>

/** Words between two tokens that are more than fillers ("which is the single country"). */
function wordsBetween(tokens: readonly Token[], from: number, to: number): number {
  return tokens.slice(from + 1, to).filter((t) => !FILLERS.has(t.text) && !WHICH_GAP_WORDS.has(t.text)).length
}

/** The noun after "which"/"quel": a well-named column close by wins over a vague word right after. */
function whichNounOf(
  tokens: readonly Token[],
  subjects: readonly ColumnMention[],
  whichIndex: number,
): ColumnMention | null {
  if (whichIndex < 0) return null
  const close = (m: ColumnMention) =>
    m.start > whichIndex && wordsBetween(tokens, whichIndex, m.start) <= 1 && !isNumeric(m.column)
  return (
    subjects.find((m) => close(m) && m.strength >= 1) ??
    subjects.find(
      (m) =>
        close(m) && m.strength < 1 && !subjects.some((o) => o.strength >= 1 && o.start > m.end && o.start - m.end <= 4),
    ) ??
    null
  )
}

/** The ranking superlative ("highest") before "top"/"bottom"; most-frequent ones are apart. */
function rankingSuperlative(tokens: readonly Token[], superlatives: readonly Superlative[]): Superlative | null {
  return (
    superlatives.find((s) => !s.mode && !TOP_WORDS.has(tokens[s.index]?.text ?? '')) ??
    superlatives.find((s) => !s.mode) ??
    null
  )
}

export function readRoles(
  cues: Cues,
  mentions: readonly ColumnMention[],
  consumed: ReadonlySet<ColumnMention>,
  aggregates: readonly AggregateCue[],
): Roles {
  const { tokens } = cues
  const subjects = mentions.filter((m) => !consumed.has(m))
  const whichIndex = tokens.findIndex((t, i) => WHICH_WORDS.has(t.text) && i < 4)
  // "by 'Weight Class'" groups; "by total lifts" ranks (an aggregate word or a number column after "by")
  const byIndex = tokens.findIndex((t) => BY_WORDS.has(t.text))
  const byTarget = byIndex >= 0 ? (subjects.find((m) => m.start > byIndex && m.start - byIndex <= 3) ?? null) : null
  const byIsMeasure =
    byTarget !== null &&
    (isNumeric(byTarget.column) || aggregates.some((a) => a.index > byIndex && a.index < byTarget.start))
  const byMeasure: ColumnSchema | null = byTarget && byIsMeasure ? numericOf(byTarget) : null
  return {
    subjects,
    firstSubject: subjects[0] ?? null,
    average: aggregates.find((a) => a.fn === 'avg') ?? null,
    simpleAggregate: aggregates.find((a) => a.fn !== 'sum' || !cues.superlatives.length) ?? null,
    superlative: rankingSuperlative(tokens, cues.superlatives),
    mostFrequent: cues.superlatives.find((s) => s.mode) ?? null,
    whichIndex,
    whichNoun: whichNounOf(tokens, subjects, whichIndex),
    byIndex,
    byMention: byTarget && !byIsMeasure ? byTarget : null,
    byMeasure,
    who: tokens.some((t, i) => i < 3 && WHO_WORDS.has(t.text)),
    limit: cues.limit ?? 1,
    wantsList: cues.list || (cues.limit !== null && cues.limit > 1),
    // "the name of the month", unless a column is already named by its name
    wantsName: tokens.some((t) => NAME_WORDS.has(t.text)) && !mentions.some((m) => NAME_HEADER.test(m.column.name)),
  }
}
