/**
 * Month names in the languages whose dates the text room reads (English, French, German,
 * Spanish), full and abbreviated, with and without accents (text extracted from PDFs often loses
 * them), and a regex alternation that finds them.
 */

const NAMES: readonly (readonly string[])[] = [
  ['january', 'jan', 'janvier', 'janv', 'januar', 'jänner', 'jaenner', 'enero', 'ene'],
  ['february', 'feb', 'febr', 'février', 'fevrier', 'févr', 'fevr', 'februar', 'febrero'],
  ['march', 'mar', 'mars', 'märz', 'maerz', 'marz', 'mär', 'marzo'],
  ['april', 'apr', 'avril', 'avr', 'abril', 'abr'],
  ['may', 'mai', 'mayo'],
  ['june', 'jun', 'juin', 'juni', 'junio'],
  ['july', 'jul', 'juillet', 'juil', 'juli', 'julio'],
  ['august', 'aug', 'août', 'aout', 'agosto'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setiembre'],
  ['october', 'oct', 'octobre', 'oktober', 'okt', 'octubre'],
  ['november', 'nov', 'novembre', 'noviembre'],
  ['december', 'dec', 'décembre', 'decembre', 'déc', 'dezember', 'dez', 'diciembre', 'dic'],
]

const MONTH_BY_NAME: ReadonlyMap<string, number> = new Map(
  NAMES.flatMap((names, index) => names.map((name) => [name, index + 1] as const)),
)

/**
 * A regex alternation (no group of its own) matching any month name, longest first so that
 * `September` is not read as `Sep`; an abbreviation may take a full stop. Use with the `i` and
 * `u` flags.
 */
export const MONTH_PATTERN = `(?:${[...MONTH_BY_NAME.keys()]
  .sort((a, b) => b.length - a.length)
  .map((name) => (name.length <= 4 ? `${name}\\.?` : name))
  .join('|')})`

/** The month number (1–12) of a month name as MONTH_PATTERN matched it; undefined when not one. */
export function monthNumber(name: string): number | undefined {
  return MONTH_BY_NAME.get(name.toLowerCase().replace(/\.$/, ''))
}

const ENGLISH = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const FRENCH = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
]
const GERMAN = [
  'Januar',
  'Februar',
  'März',
  'April',
  'Mai',
  'Juni',
  'Juli',
  'August',
  'September',
  'Oktober',
  'November',
  'Dezember',
]
const SPANISH = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
]

/** Month names to write dates with, by language; English for any other. */
export function monthNames(language: string): readonly string[] {
  if (language === 'fr') return FRENCH
  if (language === 'de') return GERMAN
  if (language === 'es') return SPANISH
  return ENGLISH
}
