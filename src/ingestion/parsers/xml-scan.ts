/**
 * A small streaming XML tokenizer for untrusted input. It never reads a DTD: the DOCTYPE (with its
 * internal subset) is skipped, and only the five predefined entities and numeric character
 * references are decoded, so entity-expansion bombs ("billion laughs") stay literal text.
 * Malformed markup never throws; whatever cannot be read as markup is dropped or kept as text.
 */
export type XmlEvent =
  | { readonly type: 'open'; readonly name: string; readonly attributes: Readonly<Record<string, string>> }
  | { readonly type: 'close'; readonly name: string }
  | { readonly type: 'text'; readonly text: string }

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
const REFERENCE = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g
const ATTRIBUTE = /([^\s=/>"']+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g

/** Decodes predefined entities and character references; any other `&name;` is left as written. */
export function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(REFERENCE, (whole, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED[ref] ?? whole
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10)
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
    return valid ? String.fromCodePoint(code) : whole
  })
}

function parseAttributes(body: string): Record<string, string> {
  const attributes: Record<string, string> = {}
  for (const match of body.matchAll(ATTRIBUTE)) {
    const name = match[1]
    if (name) attributes[name] = decodeXmlText(match[2] ?? match[3] ?? match[4] ?? '')
  }
  return attributes
}

/** Index just past the `>` closing a tag or declaration starting at `from`, honouring quotes (and `[...]` in a DOCTYPE); -1 if not in the buffer yet. */
function endOfMarkup(buffer: string, from: number, brackets: boolean): number {
  let quote = ''
  let depth = 0
  for (let i = from; i < buffer.length; i++) {
    const ch = buffer[i]
    if (quote) {
      if (ch === quote) quote = ''
    } else if (ch === '"' || ch === "'") quote = ch
    else if (brackets && ch === '[') depth++
    else if (brackets && ch === ']') depth = Math.max(0, depth - 1)
    else if (ch === '>' && depth === 0) return i + 1
  }
  return -1
}

/** Feed text with {@link write}, then call {@link end}; each returns the events completed so far. */
export class XmlScanner {
  private buffer = ''

  write(chunk: string): XmlEvent[] {
    this.buffer += chunk
    return this.scan(false)
  }

  end(): XmlEvent[] {
    const events = this.scan(true)
    this.buffer = ''
    return events
  }

  private scan(final: boolean): XmlEvent[] {
    const events: XmlEvent[] = []
    const b = this.buffer
    let pos = 0
    while (pos < b.length) {
      if (b[pos] !== '<') {
        let next = b.indexOf('<', pos)
        if (next < 0) {
          if (!final) {
            // Hold back a possibly cut entity reference.
            const amp = b.lastIndexOf('&')
            next = amp >= pos && b.length - amp < 12 && !b.includes(';', amp) ? amp : b.length
            if (next > pos) events.push({ type: 'text', text: decodeXmlText(b.slice(pos, next)) })
            pos = next
            break
          }
          next = b.length
        }
        events.push({ type: 'text', text: decodeXmlText(b.slice(pos, next)) })
        pos = next
        continue
      }
      const rest = b.length - pos
      if (rest < 9 && !final && ('<!--'.startsWith(b.slice(pos, pos + 4)) || '<![CDATA['.startsWith(b.slice(pos))))
        break
      let end: number
      if (b.startsWith('<!--', pos)) {
        const close = b.indexOf('-->', pos + 4)
        end = close < 0 ? -1 : close + 3
      } else if (b.startsWith('<![CDATA[', pos)) {
        const close = b.indexOf(']]>', pos + 9)
        end = close < 0 ? -1 : close + 3
        if (end > 0) events.push({ type: 'text', text: b.slice(pos + 9, close) })
      } else if (b.startsWith('<?', pos)) {
        const close = b.indexOf('?>', pos + 2)
        end = close < 0 ? -1 : close + 2
      } else if (b.startsWith('<!', pos)) {
        end = endOfMarkup(b, pos + 2, true)
      } else {
        end = endOfMarkup(b, pos + 1, false)
        if (end > 0) this.tag(b.slice(pos + 1, end - 1), events)
      }
      if (end < 0) {
        if (!final) break
        end = b.length
      }
      pos = end
    }
    this.buffer = b.slice(pos)
    return events
  }

  private tag(inner: string, events: XmlEvent[]): void {
    if (inner.startsWith('/')) {
      events.push({ type: 'close', name: inner.slice(1).trim() })
      return
    }
    const selfClosing = inner.endsWith('/')
    const body = selfClosing ? inner.slice(0, -1) : inner
    const nameEnd = body.search(/[\s]/)
    const name = nameEnd < 0 ? body : body.slice(0, nameEnd)
    if (!name) return
    events.push({ type: 'open', name, attributes: nameEnd < 0 ? {} : parseAttributes(body.slice(nameEnd)) })
    if (selfClosing) events.push({ type: 'close', name })
  }
}
