// The text libraries below ship without type declarations; only what Lantern uses is declared.

declare module 'snowball-stemmers' {
  export interface Stemmer {
    stem(word: string): string
  }
  const snowball: {
    newStemmer(algorithm: string): Stemmer
    algorithms(): string[]
  }
  export default snowball
}

declare module 'stopword' {
  /** Stop-word lists keyed by ISO 639-3 code (`eng`, `fra`, `deu`…). */
  export const eng: readonly string[]
  export const fra: readonly string[]
  export const deu: readonly string[]
  export const spa: readonly string[]
  export const ita: readonly string[]
  export const por: readonly string[]
  export const nld: readonly string[]
  export const dan: readonly string[]
  export const swe: readonly string[]
  export const nob: readonly string[]
  export const fin: readonly string[]
  export const rus: readonly string[]
}
