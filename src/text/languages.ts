import snowball, { type Stemmer } from 'snowball-stemmers'
import * as stopwords from 'stopword'
import { foldWord } from './folding.js'

/**
 * The pronouns, auxiliaries and question adverbs of NLTK's English stop list that the stopword
 * package's list lacks (`Does`, `why`, `its`, `when`, `doesn't`): they say nothing of what a
 * question asks, yet documents seldom write them, so as search terms they outweighed the words
 * that do. NLTK's prepositions, quantifiers and negations (`off` in "spin off", `no`, `not`,
 * `few`) and its one-letter fragments (`t` of `AT&T`) are left as terms.
 */
const ENGLISH_FUNCTION_WORDS = [
  ...['myself', 'ours', 'ourselves', 'yours', 'yourself', 'yourselves', 'she', 'hers', 'herself', 'its', 'itself'],
  ...['theirs', 'themselves', 'whom', 'having', 'does', 'doing', 'again', 'further', 'once', 'when', 'why', 'nor'],
  ...['so', 'will', 'just', 'don', 'ain', 'aren', 'couldn', 'didn', 'doesn', 'hadn', 'hasn', 'haven', 'isn'],
  ...['mightn', 'mustn', 'needn', 'shan', 'shouldn', 'wasn', 'weren', 'wouldn'],
]

interface LanguageResources {
  /** Snowball algorithm name. */
  readonly algorithm: string
  readonly stopwords: readonly string[]
}

const RESOURCES: Readonly<Record<string, LanguageResources>> = {
  en: { algorithm: 'english', stopwords: [...stopwords.eng, ...ENGLISH_FUNCTION_WORDS] },
  fr: { algorithm: 'french', stopwords: stopwords.fra },
  de: { algorithm: 'german', stopwords: stopwords.deu },
  es: { algorithm: 'spanish', stopwords: stopwords.spa },
  it: { algorithm: 'italian', stopwords: stopwords.ita },
  pt: { algorithm: 'portuguese', stopwords: stopwords.por },
  nl: { algorithm: 'dutch', stopwords: stopwords.nld },
  da: { algorithm: 'danish', stopwords: stopwords.dan },
  sv: { algorithm: 'swedish', stopwords: stopwords.swe },
  no: { algorithm: 'norwegian', stopwords: stopwords.nob },
  fi: { algorithm: 'finnish', stopwords: stopwords.fin },
  ru: { algorithm: 'russian', stopwords: stopwords.rus },
}

/** ISO 639-1 codes analysed with their own stop words and stemmer; the only ones detection returns. */
export const SUPPORTED_LANGUAGES: readonly string[] = Object.keys(RESOURCES)

/** The language used when detection is unsure or a code is unknown. */
export const DEFAULT_LANGUAGE = 'en'

/** `en`, `EN`, `en-US`, `fr_FR` → `en`/`fr`; `nb`/`nn` → `no`. Any other value is lower-cased as is. */
export function baseLanguage(language: string): string {
  const base = language.trim().toLowerCase().split(/[-_]/)[0] ?? ''
  return base === 'nb' || base === 'nn' ? 'no' : base
}

export interface Language {
  /** Stop words already folded like terms are; empty for languages without a list. */
  readonly stopwords: ReadonlySet<string>
  /** Stems a folded word; the identity for languages without a stemmer. */
  stem(word: string): string
}

const STEM_CACHE_LIMIT = 50_000

function languageOf(resources: LanguageResources | undefined): Language {
  if (!resources) return { stopwords: new Set(), stem: (word) => word }
  const stemmer: Stemmer = snowball.newStemmer(resources.algorithm)
  // Documents repeat their words; stemming each distinct word once is most of the analysis cost.
  const cache = new Map<string, string>()
  return {
    stopwords: new Set(resources.stopwords.map((word) => foldWord(word.trim())).filter((word) => word !== '')),
    stem(word) {
      const known = cache.get(word)
      if (known !== undefined) return known
      if (cache.size >= STEM_CACHE_LIMIT) cache.clear()
      const stem = stemmer.stem(word)
      cache.set(word, stem)
      return stem
    },
  }
}

const loaded = new Map<string, Language>()

/** Stop words and stemmer of a language, built once per process. */
export function languageResources(language: string): Language {
  const code = baseLanguage(language)
  let resources = loaded.get(code)
  if (!resources) {
    resources = languageOf(RESOURCES[code])
    loaded.set(code, resources)
  }
  return resources
}
