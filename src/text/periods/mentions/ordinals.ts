/** Ordinal words of quarters and halves, in English, French, German and Spanish. */
const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  premier: 1,
  première: 1,
  premiere: 1,
  '1er': 1,
  '1re': 1,
  deuxième: 2,
  deuxieme: 2,
  '2e': 2,
  '2ème': 2,
  troisième: 3,
  troisieme: 3,
  '3e': 3,
  '3ème': 3,
  quatrième: 4,
  quatrieme: 4,
  '4e': 4,
  '4ème': 4,
  erste: 1,
  ersten: 1,
  erstes: 1,
  erster: 1,
  '1.': 1,
  zweite: 2,
  zweiten: 2,
  zweites: 2,
  zweiter: 2,
  '2.': 2,
  dritte: 3,
  dritten: 3,
  drittes: 3,
  dritter: 3,
  '3.': 3,
  vierte: 4,
  vierten: 4,
  viertes: 4,
  vierter: 4,
  '4.': 4,
  primer: 1,
  primero: 1,
  segundo: 2,
  tercer: 3,
  tercero: 3,
  cuarto: 4,
}

/** An ordinal word as written (`Second`, `2nd`, `2e`, `zweites`, `segundo`) → 1–4. */
export function ordinal(word: string): number | undefined {
  return ORDINALS[word.toLowerCase()]
}

/** The ordinal words of ORDINALS as a regex group. */
export const ORDINAL =
  '(first|second|third|fourth|1st|2nd|3rd|4th|premi[eè]re?|1er|1re|deuxi[eè]me|2e|2[eè]me|troisi[eè]me|3e|3[eè]me|quatri[eè]me|4e|4[eè]me|erste[nrs]?|zweite[nrs]?|dritte[nrs]?|vierte[nrs]?|[1-4]\\.|primer|primero|segundo|tercer|tercero|cuarto)'
