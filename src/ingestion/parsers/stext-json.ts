/**
 * Reads the lines of MuPDF's structured text as JSON (`mutool draw -F stext.json`) straight from
 * its bytes. A filing gives about 37 KB of it a page, most of it fonts and boxes the layout does
 * not use: decoding it all to a string (two bytes a character as soon as one character is not
 * ASCII) and building every object with JSON.parse took 2.7 times as long as reading only the
 * fields used (docs/decisions.md "MuPDF's JSON read from its bytes"). It is an ordinary JSON
 * reader that skips what it is not asked for, so keys may come in any order and unknown ones are
 * passed over; anything that is not JSON is a StextJsonError.
 */

/** One line of text as MuPDF writes it (points, y downwards). */
export interface StextLine {
  /** 1: vertical writing. */
  readonly wmode: number
  /** Left of the line's first character and its baseline. */
  readonly x: number
  readonly y: number
  /** Width and height of the line's box. */
  readonly w: number
  readonly h: number
  /** Font size; 0 when MuPDF gives none. */
  readonly size: number
  readonly text: string
}

export class StextJsonError extends Error {}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const MINUS = 0x2d
const ZERO = 0x30
const NINE = 0x39

/**
 * The text lines of every page of `bytes`, in order: `visit(page, line)` for each line of a text
 * block, pages numbered from 0. Returns the number of pages.
 */
export function readStextJson(bytes: Buffer, visit: (page: number, line: StextLine) => void): number {
  return new StextReader(bytes).document(visit)
}

class StextReader {
  #at = 0
  /** Bounds of the last string read (its content, without the quotes) and whether it has escapes. */
  #start = 0
  #end = 0
  #escaped = false

  constructor(private readonly bytes: Buffer) {}

  document(visit: (page: number, line: StextLine) => void): number {
    let pages = 0
    if (this.open(OPEN_BRACE, CLOSE_BRACE)) {
      do {
        this.key()
        if (!this.stringIs('pages')) {
          this.skip()
          continue
        }
        if (this.open(OPEN_BRACKET, CLOSE_BRACKET)) {
          do this.page(pages++, visit)
          while (this.more(CLOSE_BRACKET))
        }
      } while (this.more(CLOSE_BRACE))
    }
    this.whitespace()
    if (this.#at !== this.bytes.length) this.fail('text after the document')
    return pages
  }

  private page(page: number, visit: (page: number, line: StextLine) => void): void {
    if (!this.open(OPEN_BRACE, CLOSE_BRACE)) return
    do {
      this.key()
      if (!this.stringIs('blocks')) {
        this.skip()
        continue
      }
      if (!this.open(OPEN_BRACKET, CLOSE_BRACKET)) continue
      do {
        // A block's type may follow its lines: they are read, and handed on once it is known.
        const lines: StextLine[] = []
        let text = false
        if (this.open(OPEN_BRACE, CLOSE_BRACE)) {
          do {
            this.key()
            if (this.stringIs('type')) {
              this.string()
              text = this.stringIs('text')
            } else if (this.stringIs('lines')) {
              if (this.open(OPEN_BRACKET, CLOSE_BRACKET)) {
                do lines.push(this.line())
                while (this.more(CLOSE_BRACKET))
              }
            } else this.skip()
          } while (this.more(CLOSE_BRACE))
        }
        if (text) for (const line of lines) visit(page, line)
      } while (this.more(CLOSE_BRACKET))
    } while (this.more(CLOSE_BRACE))
  }

  private line(): StextLine {
    let wmode = 0
    let x = 0
    let y = 0
    let w = 0
    let h = 0
    let size = 0
    let text = ''
    if (this.open(OPEN_BRACE, CLOSE_BRACE)) {
      do {
        this.key()
        if (this.stringIs('text')) text = this.text()
        else if (this.stringIs('x')) x = this.number()
        else if (this.stringIs('y')) y = this.number()
        else if (this.stringIs('wmode')) wmode = this.number()
        else if (this.stringIs('bbox')) {
          if (this.open(OPEN_BRACE, CLOSE_BRACE)) {
            do {
              this.key()
              if (this.stringIs('w')) w = this.number()
              else if (this.stringIs('h')) h = this.number()
              else this.skip()
            } while (this.more(CLOSE_BRACE))
          }
        } else if (this.stringIs('font')) {
          if (this.open(OPEN_BRACE, CLOSE_BRACE)) {
            do {
              this.key()
              if (this.stringIs('size')) size = this.number()
              else this.skip()
            } while (this.more(CLOSE_BRACE))
          }
        } else this.skip()
      } while (this.more(CLOSE_BRACE))
    }
    return { wmode, x, y, w, h, size, text }
  }

  private fail(what: string): never {
    throw new StextJsonError(`${what} at byte ${this.#at}`)
  }

  private whitespace(): void {
    const bytes = this.bytes
    let at = this.#at
    let byte = bytes[at]
    while (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) byte = bytes[++at]
    this.#at = at
  }

  /** Reads `open`; false when the container is empty (its close is read too). */
  private open(open: number, close: number): boolean {
    this.whitespace()
    if (this.bytes[this.#at] !== open) this.fail(`expected ${String.fromCharCode(open)}`)
    this.#at++
    this.whitespace()
    if (this.bytes[this.#at] !== close) return true
    this.#at++
    return false
  }

  /** After a member: true when another one follows, false at the container's `close`. */
  private more(close: number): boolean {
    this.whitespace()
    const byte = this.bytes[this.#at++]
    if (byte === COMMA) return true
    if (byte === close) return false
    this.#at--
    return this.fail(`expected , or ${String.fromCharCode(close)}`)
  }

  /** Reads a string's bounds; decoding is left to the caller (most strings are only compared or skipped). */
  private string(): void {
    this.whitespace()
    const bytes = this.bytes
    if (bytes[this.#at] !== QUOTE) this.fail('expected a string')
    let at = this.#at + 1
    this.#start = at
    this.#escaped = false
    for (;;) {
      const byte = bytes[at]
      if (byte === QUOTE) break
      if (byte === undefined) this.fail('unterminated string')
      if (byte === BACKSLASH) {
        this.#escaped = true
        at += 2
      } else at++
    }
    this.#end = at
    this.#at = at + 1
  }

  private key(): void {
    this.string()
    this.whitespace()
    if (this.bytes[this.#at] !== COLON) this.fail('expected :')
    this.#at++
  }

  /** Whether the last string read (a key or a value) is exactly `ascii` (compared as bytes, nothing decoded). */
  private stringIs(ascii: string): boolean {
    if (this.#escaped || this.#end - this.#start !== ascii.length) return false
    for (let i = 0; i < ascii.length; i++) if (this.bytes[this.#start + i] !== ascii.charCodeAt(i)) return false
    return true
  }

  private text(): string {
    this.string()
    const bytes = this.bytes
    const decoded = this.#escaped ? this.#start - 1 : this.#start
    const end = this.#escaped ? this.#end + 1 : this.#end
    const raw = bytes.toString('utf8', decoded, end)
    if (!this.#escaped) return raw
    try {
      return JSON.parse(raw) as string
    } catch {
      return this.fail('bad escape in a string')
    }
  }

  private number(): number {
    this.whitespace()
    const bytes = this.bytes
    const start = this.#at
    let at = start
    const negative = bytes[at] === MINUS
    if (negative) at++
    let value = 0
    let digits = 0
    let byte = bytes[at] as number
    while (byte >= ZERO && byte <= NINE) {
      value = value * 10 + (byte - ZERO)
      byte = bytes[++at] as number
      digits++
    }
    if (digits > 0 && digits < 16 && byte !== 0x2e && byte !== 0x65 && byte !== 0x45) {
      this.#at = at
      return negative ? -value : value
    }
    // Fractions and exponents (MuPDF writes whole points, other versions may not).
    while (at < bytes.length && !isDelimiter(bytes[at] as number)) at++
    const number = Number(bytes.toString('latin1', start, at))
    if (at === start || Number.isNaN(number)) this.fail('expected a number')
    this.#at = at
    return number
  }

  /** Passes over one value of any kind. */
  private skip(): void {
    this.whitespace()
    const bytes = this.bytes
    const first = bytes[this.#at]
    if (first === QUOTE) {
      this.string()
      return
    }
    if (first === OPEN_BRACE || first === OPEN_BRACKET) {
      let depth = 0
      for (;;) {
        const byte = bytes[this.#at]
        if (byte === QUOTE) {
          this.string()
          continue
        }
        if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++
        else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          if (--depth === 0) {
            this.#at++
            return
          }
        } else if (byte === undefined) this.fail('unterminated value')
        this.#at++
      }
    }
    // A number or a literal (true, false, null).
    const start = this.#at
    while (this.#at < bytes.length && !isDelimiter(bytes[this.#at] as number)) this.#at++
    if (this.#at === start) this.fail('expected a value')
  }
}

function isDelimiter(byte: number): boolean {
  return (
    byte === COMMA ||
    byte === CLOSE_BRACE ||
    byte === CLOSE_BRACKET ||
    byte === 0x20 ||
    byte === 0x0a ||
    byte === 0x0d ||
    byte === 0x09
  )
}
