/**
 * Comparators, ranges and dates in a question, English and French, folded (lower case, no accents).
 */

export type Comparison = '>' | '>=' | '<' | '<=' | '=' | '<>'

/** Comparators before a number ("more than 10", "au moins 3"); longest first when matching. */
export const COMPARATORS: ReadonlyArray<readonly [string, Comparison]> = [
  ['greater than or equal to', '>='],
  ['less than or equal to', '<='],
  ['equal to or greater than', '>='],
  ['equal to or less than', '<='],
  ['superieur ou egal a', '>='],
  ['inferieur ou egal a', '<='],
  ['no more than', '<='],
  ['no less than', '>='],
  ['not more than', '<='],
  ['not less than', '>='],
  ['not greater than', '<='],
  ['greater than', '>'],
  ['more than', '>'],
  ['higher than', '>'],
  ['larger than', '>'],
  ['bigger than', '>'],
  ['better than', '>'],
  ['older than', '>'],
  ['heavier than', '>'],
  ['taller than', '>'],
  ['longer than', '>'],
  ['worse than', '>'],
  ['above', '>'],
  ['over', '>'],
  ['exceeding', '>'],
  ['exceeds', '>'],
  ['exceed', '>'],
  ['at least', '>='],
  ['minimum of', '>='],
  ['less than', '<'],
  ['fewer than', '<'],
  ['lower than', '<'],
  ['smaller than', '<'],
  ['younger than', '<'],
  ['shorter than', '<'],
  ['lighter than', '<'],
  ['cheaper than', '<'],
  ['below', '<'],
  ['under', '<'],
  ['at most', '<='],
  ['maximum of', '<='],
  ['up to', '<='],
  ['exactly', '='],
  ['equal to', '='],
  ['equals', '='],
  ['equal', '='],
  ['superieur a', '>'],
  ['superieure a', '>'],
  ['superieurs a', '>'],
  ['superieures a', '>'],
  ['plus de', '>'],
  ['plus que', '>'],
  ['au dessus de', '>'],
  ['au-dessus de', '>'],
  ['depassant', '>'],
  ['au moins', '>='],
  ['inferieur a', '<'],
  ['inferieure a', '<'],
  ['inferieurs a', '<'],
  ['inferieures a', '<'],
  ['moins de', '<'],
  ['moins que', '<'],
  ['en dessous de', '<'],
  ['au plus', '<='],
  ['exactement', '='],
  ['egal a', '='],
  ['egale a', '='],
  ['different from', '<>'],
  ['other than', '<>'],
  ['different de', '<>'],
  ['of', '='],
  ['de', '='],
]

/** Comparisons with zero without a number. */
export const NEGATIVE_WORDS = new Set(['negative', 'negatif'])
export const POSITIVE_WORDS = new Set(['positive', 'positif'])

/** "between 5 and 10", "entre 5 et 10". */
export const BETWEEN_WORDS = new Set(['between', 'entre'])
export const AND_WORDS = new Set(['and', 'et'])

/** "1st to 3rd", "5e au 10e": a range of ordinals. */
export const ORDINAL_RANGE_JOINERS = new Set(['to', 'through', 'and', 'a', 'au'])

/** "closest to 80", "le plus proche de 80". */
export const CLOSEST_WORDS = new Set(['closest', 'nearest', 'proche'])
export const CLOSEST_LINKS = new Set(['to', 'de'])

/** Words that may sit between a comparator and its number ("more than a score of 5"). */
export const COMPARATOR_GAP_WORDS = new Set(['a', 'an', 'un', 'une', 'the', 'score', 'value', 'rating'])

/** "more Xs than Ys": which comparative words count fewer rather than more. */
export const COMPARATIVE_WORDS = new Set([
  'more',
  'bigger',
  'larger',
  'greater',
  'fewer',
  'less',
  'smaller',
  'plus',
  'moins',
])
export const FEWER_WORDS = new Set(['fewer', 'less', 'smaller', 'moins'])
export const THAN_WORDS = new Set(['than', 'que'])

/** "5 goals per game": a number before a column's name followed by these is a rate, not that column's value. */
export const RATE_WORDS = new Set(['a', 'per', 'each', 'par'])

/** The words around ISO dates: articles skipped, and the words that give the comparison. */
export const DATE_ARTICLES = new Set(['le', 'la', 'the', 'l'])
export const DATE_RANGE_OPENERS = new Set(['between', 'entre', 'from', 'du'])
export const DATE_RANGE_JOINERS = new Set(['and', 'et', 'to', 'au'])
export const DATE_AFTER_WORDS = new Set(['after', 'apres'])
export const DATE_SINCE_WORDS = new Set(['since', 'depuis', 'from'])
export const DATE_BEFORE_WORDS = new Set(['before', 'avant'])
export const DATE_UNTIL_WORDS = new Set(['until', 'jusqu'])
