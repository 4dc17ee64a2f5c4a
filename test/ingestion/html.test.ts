import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { declaredHtmlCharset, htmlParser, htmlToBlocks } from '../../src/ingestion/parsers/html.js'
import { filesWithExtensions, inputFor, realFilePass, robustnessDir, tempFiles } from './text-formats-support.js'

const file = tempFiles()

const PAGE = `<!DOCTYPE html>
<html><head>
  <title>  Leave   policy </title>
  <style>body { color: red }</style>
  <script>var secret = "do not index"</script>
</head>
<body>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <header><h1>Leave <em>policy</em></h1></header>
  <main>
    <p>Every employee gets <b>25 days</b>
       of paid leave.<br>Ask HR first.</p>
    <div>Loose text in a div
      <div>nested block</div>
    </div>
    <h2>Carry-over</h2>
    <ul><li>Up to 5 days</li><li>Until <i>March</i> 31<ul><li>nested item</li></ul></li></ul>
    <table>
      <caption>Entitlement by seniority (in days)</caption>
      <thead><tr><th>Years</th><th>Days</th></tr></thead>
      <tbody>
        <tr><td>0–2</td><td>25</td></tr>
        <tr><td>3+</td><td>28</td></tr>
        <tr><td colspan="2"></td></tr>
      </tbody>
    </table>
    <table><tr><td>Name</td><td>Score</td></tr><tr><td>Ann</td><td>12</td></tr><tr><td>Bob</td><td>7.5</td></tr></table>
    <table><tr><td><table><tr><td>layout inner</td><td>cell</td></tr></table></td></tr></table>
    <pre>line 1
    indented line 2</pre>
    <p hidden>hidden text</p>
    <div style="display: none">invisible xbrl</div>
    <noscript>enable javascript</noscript>
  </main>
  <aside>Related links</aside>
  <footer>© 2026 Example</footer>
</body></html>`

describe('html parser', () => {
  it('keeps headings, paragraphs, list items and tables, and drops scripts, navigation and chrome', async () => {
    const doc = await htmlParser.parse(inputFor(await file('page.html', PAGE), 'text/html'))
    expect(doc.title).toBe('Leave policy')
    expect(doc.pageCount).toBe(1)
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Leave policy' },
      { kind: 'paragraph', text: 'Every employee gets 25 days of paid leave.\nAsk HR first.' },
      { kind: 'paragraph', text: 'Loose text in a div' },
      { kind: 'paragraph', text: 'nested block' },
      { kind: 'heading', level: 2, text: 'Carry-over' },
      { kind: 'paragraph', text: 'Up to 5 days' },
      { kind: 'paragraph', text: 'Until March 31' },
      { kind: 'paragraph', text: 'nested item' },
      {
        kind: 'table',
        title: 'Entitlement by seniority',
        unit: '(in days)',
        header: ['Years', 'Days'],
        rows: [
          { rowNumber: 2, cells: ['0–2', '25'] },
          { rowNumber: 3, cells: ['3+', '28'] },
        ],
      },
      {
        kind: 'table',
        header: ['Name', 'Score'],
        rows: [
          { rowNumber: 2, cells: ['Ann', '12'] },
          { rowNumber: 3, cells: ['Bob', '7.5'] },
        ],
      },
      { kind: 'paragraph', text: 'layout inner' },
      { kind: 'paragraph', text: 'cell' },
      { kind: 'paragraph', text: 'line 1\n    indented line 2' },
    ])
    const all = JSON.stringify(doc)
    for (const dropped of [
      'secret',
      'color: red',
      'Home',
      'Related links',
      '© 2026',
      'hidden text',
      'invisible',
      'javascript',
    ]) {
      expect(all).not.toContain(dropped)
    }
  })

  it('decodes with the declared charset, and ignores a declaration the bytes contradict', async () => {
    const html =
      '<html><head><meta charset="windows-1252"><title>Café</title></head><body><p>Prix : 5 € — très bien</p></body></html>'
    const doc = await htmlParser.parse(
      inputFor(await file('cp1252.html', iconv.encode(html, 'windows-1252')), 'text/html'),
    )
    expect(doc.title).toBe('Café')
    expect(doc.blocks).toEqual([{ kind: 'paragraph', text: 'Prix : 5 € — très bien' }])

    const lying = '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>naïve – ok</p>'
    const utf8 = await htmlParser.parse(inputFor(await file('lying.html', lying), 'text/html'))
    expect(utf8.blocks).toEqual([{ kind: 'paragraph', text: 'naïve – ok' }])

    expect(
      declaredHtmlCharset(Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">')),
    ).toBe('Shift_JIS')
    expect(declaredHtmlCharset(Buffer.from('<?xml version="1.0" encoding="ISO-8859-15"?><html/>'))).toBe('ISO-8859-15')
    expect(declaredHtmlCharset(Buffer.from('<p>none</p>'))).toBeNull()
  })

  it('takes the first h1 as title when there is no <title>, and reads fragments', () => {
    expect(htmlToBlocks('<h2>Sub</h2><h1>Main</h1>text')).toEqual({
      title: 'Main',
      blocks: [
        { kind: 'heading', level: 2, text: 'Sub' },
        { kind: 'heading', level: 1, text: 'Main' },
        { kind: 'paragraph', text: 'text' },
      ],
    })
    expect(htmlToBlocks('')).toEqual({ blocks: [] })
  })

  const dir = robustnessDir()
  it.skipIf(!dir)('parses every html in the robustness corpus or rejects it with an IngestError', async () => {
    const files = filesWithExtensions(dir as string, ['html'])
    expect(files.length).toBeGreaterThan(10)
    const { parsed, rejected } = await realFilePass(htmlParser, files, () => 'text/html')
    expect(rejected).toEqual([])
    expect(parsed).toBe(files.length)
  })
})
