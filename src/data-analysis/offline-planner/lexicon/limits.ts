import type { Direction } from './superlatives.js'

/** How many items a question asks for, and from which end of the file, English and French, folded. */

/** A number after these is how many items are asked for ("top 5", "first 10", "list 3"). */
export const LIMIT_BEFORE = new Set([
  'top',
  'first',
  'last',
  'list',
  'premiers',
  'premieres',
  'derniers',
  'dernieres',
  'bottom',
])

/**
 * "the 3 players", "all 5 books", "which 5 players": a number after these is a limit in a list or a
 * ranking ("which 5 … have the lowest …" asks for five of them, it compares nothing).
 */
export const LIMIT_NOUN_BEFORE = new Set(['the', 'les', 'all', 'which', 'what', 'quels', 'quelles'])

/** "first 5 rows", "last five books": file order, and from which end. */
export const POSITION_WORDS: Readonly<Record<string, Direction>> = {
  first: 'asc',
  last: 'desc',
  premiers: 'asc',
  premieres: 'asc',
  premier: 'asc',
  premiere: 'asc',
  derniers: 'desc',
  dernieres: 'desc',
  dernier: 'desc',
  derniere: 'desc',
}

/** "the first row", "the last entry": one row at that end of the file. */
export const ROW_WORDS = new Set(['row', 'rows', 'ligne', 'lignes', 'entry', 'record'])

/**
 * "at least 5 observations": after a compared number these words count a group's rows; no column
 * holds them. Not "times" nor "occurrences": "reviewed more than 10 times", "the most occurrences of
 * 'love'" count something else than rows.
 */
export const ROW_COUNT_NOUNS = new Set([...ROW_WORDS, 'entries', 'records', 'observations'])

/** "top one", "the one most…": number words only read as 1 after "top". */
export const ONE_WORDS = new Set(['one', 'un', 'une'])
