/**
 * Superlatives and the dimensions they name, English and French, folded (lower case, no accents).
 */

export type Direction = 'desc' | 'asc'

/** Superlative and comparative words with their direction. */
export const SUPERLATIVES: Readonly<Record<string, Direction>> = {
  maximum: 'desc',
  max: 'desc',
  highest: 'desc',
  largest: 'desc',
  biggest: 'desc',
  greatest: 'desc',
  most: 'desc',
  top: 'desc',
  best: 'desc',
  maximal: 'desc',
  heaviest: 'desc',
  oldest: 'desc',
  tallest: 'desc',
  longest: 'desc',
  hottest: 'desc',
  windiest: 'desc',
  richest: 'desc',
  priciest: 'desc',
  minimum: 'asc',
  min: 'asc',
  lowest: 'asc',
  smallest: 'asc',
  least: 'asc',
  fewest: 'asc',
  minimal: 'asc',
  cheapest: 'asc',
  youngest: 'asc',
  shortest: 'asc',
  lightest: 'asc',
  coldest: 'asc',
  poorest: 'asc',
  worst: 'asc',
  bottom: 'asc',
  led: 'desc',
  leads: 'desc',
  leader: 'desc',
  leading: 'desc',
  maximale: 'desc',
  minimale: 'asc',
}

/** French superlatives: `le plus grand`, `la plus élevée`, `le moins cher`. */
export const FRENCH_SUPERLATIVE_HEADS: Readonly<Record<string, Direction>> = { plus: 'desc', moins: 'asc' }
export const FRENCH_ADJECTIVES: Readonly<Record<string, Direction | 'same'>> = {
  grand: 'same',
  grande: 'same',
  grands: 'same',
  grandes: 'same',
  eleve: 'same',
  elevee: 'same',
  eleves: 'same',
  elevees: 'same',
  haut: 'same',
  haute: 'same',
  important: 'same',
  importante: 'same',
  fort: 'same',
  forte: 'same',
  petit: 'asc',
  petite: 'asc',
  petits: 'asc',
  petites: 'asc',
  bas: 'asc',
  basse: 'asc',
  faible: 'asc',
  cher: 'same',
  chere: 'same',
  chers: 'same',
  cheres: 'same',
  age: 'same',
  agee: 'same',
  jeune: 'asc',
  jeunes: 'asc',
  frequent: 'same',
  frequente: 'same',
  frequents: 'same',
  frequentes: 'same',
  courant: 'same',
  courante: 'same',
  commun: 'same',
  commune: 'same',
  repandu: 'same',
  repandue: 'same',
}

/** Superlatives of a quantity: "the most entries" ranks by a number of rows, "the longest tornado" does not. */
export const QUANTITY_SUPERLATIVES = new Set(['most', 'least', 'fewest'])

/** Words after "most"/"least" (or "plus"/"moins") that ask for the most frequent value. */
export const MODE_WORDS = new Set([
  'common',
  'frequent',
  'frequently',
  'commonly',
  'popular',
  'often',
  'represented',
  'frequente',
  'frequents',
  'frequentes',
  'courant',
  'courante',
  'commun',
  'commune',
  'repandu',
  'repandue',
])
export const MODE_NOUNS = ['mode', 'most common', 'plus frequent', 'plus frequente']

/** Adjectives that name the dimension they compare: "older" → a column about age. */
export const DIMENSION_ADJECTIVES: Readonly<
  Record<string, { readonly words: string[]; readonly direction: Direction }>
> = {
  older: { words: ['age'], direction: 'desc' },
  oldest: { words: ['age'], direction: 'desc' },
  younger: { words: ['age'], direction: 'asc' },
  youngest: { words: ['age'], direction: 'asc' },
  heavier: { words: ['weight'], direction: 'desc' },
  heaviest: { words: ['weight'], direction: 'desc' },
  lighter: { words: ['weight'], direction: 'asc' },
  lightest: { words: ['weight'], direction: 'asc' },
  taller: { words: ['height'], direction: 'desc' },
  tallest: { words: ['height'], direction: 'desc' },
  // a text's length is often kept as its number of words (`word_count`)
  longer: { words: ['length', 'duration', 'words'], direction: 'desc' },
  longest: { words: ['length', 'duration', 'words'], direction: 'desc' },
  shorter: { words: ['length', 'height', 'duration', 'words'], direction: 'asc' },
  shortest: { words: ['length', 'height', 'duration', 'words'], direction: 'asc' },
  expensive: { words: ['price', 'cost', 'index'], direction: 'desc' },
  cheaper: { words: ['price', 'cost', 'index'], direction: 'asc' },
  cheapest: { words: ['price', 'cost', 'index'], direction: 'asc' },
  hotter: { words: ['temperature', 'temp'], direction: 'desc' },
  hottest: { words: ['temperature', 'temp'], direction: 'desc' },
  colder: { words: ['temperature', 'temp'], direction: 'asc' },
  coldest: { words: ['temperature', 'temp'], direction: 'asc' },
  windiest: { words: ['wind'], direction: 'desc' },
  richest: { words: ['income', 'wealth', 'salary'], direction: 'desc' },
  cher: { words: ['price', 'cost', 'prix'], direction: 'desc' },
  chere: { words: ['price', 'cost', 'prix'], direction: 'desc' },
  age: { words: ['age'], direction: 'desc' },
  agee: { words: ['age'], direction: 'desc' },
  jeune: { words: ['age'], direction: 'asc' },
}

/** "top 3", "bottom 5": ranked by the count of rows when no other measure is named. */
export const TOP_WORDS = new Set(['top', 'bottom'])

/** "at least", "au moins": "least" and "moins" there are comparators, not superlatives. */
export const COMPARATOR_HEADS = new Set(['at', 'au'])

/** French articles before `plus`/`moins` in a superlative ("le plus grand"). */
export const FRENCH_SUPERLATIVE_ARTICLES = new Set(['le', 'la', 'les', 'l'])

/** "the single highest", "one record": the extreme row itself, not the extreme group. */
export const SINGLE_ROW_WORDS = new Set(['single', 'given', 'one', 'individual', 'record', 'seul', 'seule', 'unique'])

/** "the foods that have the most calories", "the entities by highest x": what links the ranked things to their measure. */
export const RANKED_THING_LINKS = new Set(['has', 'have', 'had', 'having', 'by', 'par'])

/** "the name of the player with the highest score": the row with the extreme value. */
export const ROW_RELATIVE_WORDS = new Set(['with', 'who', 'whose', 'avec', 'dont'])

/** "a perfect score": the column's maximum. */
export const MAXIMUM_ADJECTIVES = new Set(['perfect'])
