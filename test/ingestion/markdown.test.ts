import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { markdownParser, markdownToBlocks } from '../../src/ingestion/parsers/markdown.js'
import { filesWithExtensions, inputFor, realFilePass, robustnessDir, tempFiles } from './text-formats-support.js'

const file = tempFiles()

const DOC = `---
owner: hr
---
# Travel **policy**

Book trains over [flights](https://example.com) when the trip is under \`4h\`.
Second line &amp; more.<br>After a break.

## Allowances

- Meals: 30 €
  - breakfast included
- Hotel

1. Ask
2. Book

\`\`\`sh
book --cheapest
\`\`\`

> Quoted advice

| City | Rate | Notes |
|------|-----:|-------|
| Paris | 180 | *central* |
| Lyon | 120 | |

<div>Inline <b>html</b> block<script>alert(1)</script></div>

Setext heading
--------------
`

describe('markdown parser', () => {
  it('turns the lexer tokens into headings, paragraphs, list items, code and tables', async () => {
    const doc = await markdownParser.parse(inputFor(await file('travel.md', DOC), 'text/markdown'))
    expect(doc.title).toBe('Travel policy')
    expect(doc.pageCount).toBe(1)
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'owner: hr' },
      { kind: 'heading', level: 1, text: 'Travel policy' },
      {
        kind: 'paragraph',
        text: 'Book trains over flights when the trip is under 4h.\nSecond line & more.\nAfter a break.',
      },
      { kind: 'heading', level: 2, text: 'Allowances' },
      { kind: 'paragraph', text: 'Meals: 30 €' },
      { kind: 'paragraph', text: 'breakfast included' },
      { kind: 'paragraph', text: 'Hotel' },
      { kind: 'paragraph', text: 'Ask' },
      { kind: 'paragraph', text: 'Book' },
      { kind: 'paragraph', text: 'book --cheapest' },
      { kind: 'paragraph', text: 'Quoted advice' },
      {
        kind: 'table',
        header: ['City', 'Rate', 'Notes'],
        rows: [
          { rowNumber: 2, cells: ['Paris', '180', 'central'] },
          { rowNumber: 3, cells: ['Lyon', '120', ''] },
        ],
      },
      { kind: 'paragraph', text: 'Inline html block' },
      { kind: 'heading', level: 2, text: 'Setext heading' },
    ])
  })

  it('decodes a Latin-1 file, and falls back to the first heading for the title', async () => {
    const doc = await markdownParser.parse(
      inputFor(await file('umlauts.md', iconv.encode('## können\n\näöüß\n', 'latin1')), 'text/markdown'),
    )
    expect(doc.title).toBe('können')
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 2, text: 'können' },
      { kind: 'paragraph', text: 'äöüß' },
    ])
    expect(markdownToBlocks('')).toEqual([])
  })

  const dir = robustnessDir()
  it.skipIf(!dir)('parses every md in the robustness corpus or rejects it with an IngestError', async () => {
    const files = filesWithExtensions(dir as string, ['md'])
    expect(files.length).toBeGreaterThan(3)
    const { parsed, rejected } = await realFilePass(markdownParser, files, () => 'text/markdown')
    expect(rejected).toEqual([])
    expect(parsed).toBe(files.length)
  })
})
