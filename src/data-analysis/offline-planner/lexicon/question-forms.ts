/**
 * The form of a question (yes/no, list, "which …", "all …") and its negations, English and French,
 * folded (lower case, no accents).
 */

/** Words that turn a question into a yes/no question when they open it. */
export const BOOLEAN_OPENERS = new Set([
  'is',
  'are',
  'does',
  'do',
  'did',
  'was',
  'were',
  'has',
  'have',
  'had',
  'can',
  'could',
  'would',
  'will',
  'est',
  'existe',
  'y',
  'sont',
  'a',
  'ont',
])

/** Verbs right after a question word that asks ("where should I …", "where is …"), English only. */
export const ASKING_VERBS = new Set([
  'is',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'will',
  'should',
  'shall',
  'must',
  'might',
  'may',
])

export const LIST_OPENERS = [
  'list',
  'liste',
  'listez',
  'lister',
  'what are',
  'which are',
  'provide',
  'give',
  'show',
  'name the',
  'enumerate',
  'quels sont',
  'quelles sont',
  'donne',
  'donnez',
  'donner',
  'enumere',
  'enumerez',
  'affiche',
  'affichez',
]

export const ALL_WORDS = new Set(['all', 'every', 'tous', 'toutes', 'chaque', 'each'])
export const ANY_WORDS = new Set([
  'any',
  'anyone',
  'anybody',
  'anything',
  'exist',
  'exists',
  'existe',
  'existent',
  'aucun',
  'aucune',
])

/** "is it true that …": a yes/no question opened by a phrase. */
export const YES_NO_PREFIXES = ['est ce que', 'est-ce que', 'is it true']

/** "is there any …": existence, asked without a yes/no opener word. */
export const EXISTENCE_PHRASES = ['is there', 'are there', 'y a t il', 'il y a']

/** "there are no …", "nobody …": the yes/no answer is negated. */
export const NO_ONE_PHRASES = [
  'there are no',
  'there is no',
  'there were no',
  'no one',
  'nobody',
  'n y a pas',
  'aucun',
  'aucune',
]

/** The words that open a "which one" question, near the start. */
export const WHICH_WORDS = new Set([
  'which',
  'what',
  'quel',
  'quelle',
  'quels',
  'quelles',
  'who',
  'qui',
  'whose',
  'where',
  'ou',
])
/** A question opened by these asks for a category (a name), not a number. */
export const ASKS_NAME_OPENERS = new Set(['which', 'who', 'where', 'ou'])
/** The same in French, unless a verb follows ("quel est le total …" asks for the number). */
export const FRENCH_WHICH_OPENERS = new Set(['quel', 'quelle', 'quels', 'quelles', 'qui'])
export const FRENCH_WHICH_VERBS = new Set(['est', 'sont', 'etait', 'a'])
/** "which ones are …", "quels sont …": a list. */
export const PLURAL_VERBS = new Set(['are', 'sont'])
export const WHO_WORDS = new Set(['who', 'qui'])
/** Words allowed between "which" and its noun ("which is the single country"). */
export const WHICH_GAP_WORDS = new Set(['is', 'are', 'was', 'single', 'est'])
/** "the name of …": the label of a row rather than a number. */
export const NAME_WORDS = new Set(['name', 'names', 'nom', 'noms'])

/** "by category", "per country", "for each team": grouping (or ranking) words. */
export const BY_WORDS = new Set(['by', 'per', 'par', 'pour', 'each', 'chaque'])

/** "products not sold by Hacendado": negations in the words right before a value. */
export const VALUE_NEGATIONS = new Set(['not', 'without', 'sans', 'pas', "don't", "doesn't", 'non'])
/** "applicants without research experience": negations before a yes/no (0/1) column. */
export const FLAG_NEGATIONS = new Set(['not', 'without', 'sans', 'pas', "don't", "doesn't", 'no', 'non', 'never'])
/** "which …", "who …": questions that ask for one thing by its name. */
export const WHICH_ONE_OPENERS = new Set(['which', 'who'])
/** "the name of …", "le nom de …". */
export const NAME_NOUNS = new Set(['name', 'nom'])
export const DEFINITE_ARTICLES = new Set(['the', 'le'])
