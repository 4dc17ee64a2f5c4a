import { describe, expect, it } from 'vitest'
import { renderAnswer } from '../src/markdown'

const cite = (n: number) => `#m0-source-${n}`

describe('answers rendered from markdown', () => {
  it('renders bold, lists, tables and code, and links each [n] in prose to its source', () => {
    const html = renderAnswer(
      'The answer is **2230**. [1]\n\n- North [2]\n\n| value |\n| --- |\n| 2230 |\n\n```sql\nSELECT x[1] FROM t\n```',
      cite,
    )
    expect(html).toContain('<strong>2230</strong>')
    expect(html).toContain('<a class="cite" href="#m0-source-1" aria-label="source 1">[1]</a>')
    expect(html).toContain('<li>North <a class="cite" href="#m0-source-2"')
    expect(html).toMatch(/<table>[\s\S]*<td>2230<\/td>/)
    expect(html).toContain('SELECT x[1] FROM t')
    expect(html).not.toContain('source-1" aria-label="source 1">[1]</a> FROM')
  })

  it("keeps none of the answer's own HTML, and no link but http(s)", () => {
    const html = renderAnswer(
      '<img src=x onerror=alert(1)> <script>alert(2)</script> [click](javascript:alert(3)) ![pic](http://x/y.png) [ok](https://example.org) a & b',
      cite,
    )
    expect(html).not.toMatch(/<img|<script|javascript:/)
    expect(html).toContain('&lt;img')
    expect(html).toContain('<a href="https://example.org" rel="noreferrer">ok</a>')
    expect(html).toContain('a &amp; b')
  })
})
