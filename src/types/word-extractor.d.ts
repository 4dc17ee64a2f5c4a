// word-extractor ships without type declarations; only what Lantern uses is declared.

declare module 'word-extractor' {
  interface TextOptions {
    /** true (the default): curly quotes, dashes and special spaces become ASCII. */
    filterUnicode?: boolean
  }

  export interface WordDocument {
    getBody(options?: TextOptions): string
    getFootnotes(options?: TextOptions): string
    getEndnotes(options?: TextOptions): string
    getAnnotations(options?: TextOptions): string
    /** Headers, and footers too unless `includeFooters` is false. */
    getHeaders(options?: TextOptions & { includeFooters?: boolean }): string
    getFooters(options?: TextOptions): string
    getTextboxes(options?: TextOptions & { includeHeadersAndFooters?: boolean; includeBody?: boolean }): string
  }

  export default class WordExtractor {
    /** A .doc (or .docx) file by path, or its bytes. */
    extract(source: string | Buffer): Promise<WordDocument>
  }
}
