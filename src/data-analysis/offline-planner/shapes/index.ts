import type { Grounding } from '../grounding/grounding.js'
import type { Recognition } from '../recognition.js'
import { recogniseAggregate } from './aggregate.js'
import { recogniseClosest } from './closest.js'
import { recogniseCount } from './count.js'
import { recogniseExtreme } from './extreme.js'
import { recogniseGroupTest } from './group-test.js'
import { recogniseGroupsByRows } from './groups-by-rows.js'
import { recogniseList } from './list.js'
import { recogniseMostFrequent } from './most-frequent.js'
import { recogniseShare } from './share.js'
import { recogniseStatistics } from './statistics.js'
import { recogniseValueCounts } from './value-counts.js'
import { recogniseYesNo } from './yes-no.js'

/** A question shape: the intent of a grounded question of that shape (or why it declines), else null. */
export type ShapeRecogniser = (grounding: Grounding) => Recognition | null

/**
 * The shapes, tried in this order; the first that recognises the question decides. The order
 * matters: groups counted by their rows come first (the number of rows they must have is no
 * condition any other shape reads), then a test between groups (its groups are values, not conditions), statistics next, since their words ("the mean and the standard deviation") would
 * otherwise be read as one aggregate; a yes/no question may also hold a count or a superlative, a count phrase may come with
 * a list, and lists and lookups are what is left.
 */
export const SHAPES: readonly ShapeRecogniser[] = [
  recogniseGroupsByRows,
  recogniseGroupTest,
  recogniseValueCounts,
  recogniseStatistics,
  recogniseYesNo,
  recogniseShare,
  recogniseMostFrequent,
  recogniseCount,
  recogniseClosest,
  recogniseExtreme,
  recogniseAggregate,
  recogniseList,
]
