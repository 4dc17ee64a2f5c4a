import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { IngestError } from '../../src/ingestion/errors.js'
import type { Block } from '../../src/ingestion/model.js'
import { createEmailParser, MAX_EMAIL_DEPTH } from '../../src/ingestion/parsers/email.js'
import { parserFor, supportedMimeTypes } from '../../src/ingestion/parsers/registry.js'

const emailParser = createEmailParser({ parserFor, supportedMimeTypes })

import {
  filesWithExtensions,
  inputFor,
  plainBlocks,
  realFilePass,
  robustnessDir,
  tempFiles,
} from './text-formats-support.js'

const file = tempFiles()
const EML = 'message/rfc822'

const base64Lines = (content: string | Buffer): string =>
  (Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8')).toString('base64').replace(/.{1,76}/g, '$&\r\n')

function message(headers: string, parts: readonly string[], boundary = 'MIXED'): string {
  return `${headers}MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n${parts
    .map((part) => `--${boundary}\r\n${part}\r\n`)
    .join('')}--${boundary}--\r\n`
}

function attachment(name: string, type: string, content: string | Buffer): string {
  return `Content-Type: ${type}; name="${name}"\r\nContent-Disposition: attachment; filename="${name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(content)}`
}

const ALTERNATIVE = [
  'Content-Type: multipart/alternative; boundary="ALT"',
  '',
  '--ALT',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Hello team,',
  '',
  'the numbers are attached. Caf=C3=A9 at 10.',
  '--ALT',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<html><body><p>Hello team (HTML version)</p></body></html>',
  '--ALT--',
].join('\r\n')

const INNER =
  'From: inner@example.com\r\nTo: ann@example.com\r\nSubject: Inner note\r\nDate: Thu, 14 Mar 2024 08:00:00 +0000\r\n\r\nInner body text\r\n'

const OUTER = message(
  'From: "Ann Example" <ann@example.com>\r\nTo: bob@example.com\r\nCc: carol@example.com, dan@example.com\r\nSubject: Quarterly =?UTF-8?Q?n=C3=BAmbers?=\r\nDate: Fri, 15 Mar 2024 10:30:00 +0100\r\n',
  [
    ALTERNATIVE,
    attachment('data.csv', 'text/csv', 'Name,Amount\r\nAnn,12\r\nBob,7.5\r\n'),
    attachment('blob.bin', 'application/octet-stream', Buffer.from([0, 1, 2, 3, 0, 255, 254, 0])),
    attachment(
      'broken.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'PK\u0003\u0004 not really',
    ),
    `Content-Type: message/rfc822\r\nContent-Disposition: attachment; filename="inner.eml"\r\n\r\n${INNER}`,
  ],
)

async function parseEml(name: string, content: string | Buffer) {
  const doc = await emailParser.parse(inputFor(await file(name, content), EML))
  expect(doc.pageCount).toBe(1)
  expect(doc.documentType).toBe('text')
  return doc
}

const headings = (blocks: readonly Block[]): string[] =>
  blocks.filter((block) => block.kind === 'heading').map((block) => `${block.level} ${block.text}`)

describe('email parser', () => {
  it('reads subject, headers, the text body and every attachment', async () => {
    const doc = await parseEml('outer.eml', OUTER)
    expect(doc.title).toBe('Quarterly númbers')
    expect(plainBlocks(doc.blocks)).toEqual([
      { kind: 'heading', level: 1, text: 'Quarterly númbers' },
      {
        kind: 'paragraph',
        text: 'From: "Ann Example" <ann@example.com>\nTo: bob@example.com\nCc: carol@example.com, dan@example.com\nDate: 2024-03-15T09:30:00.000Z',
      },
      { kind: 'paragraph', text: 'Hello team,' },
      { kind: 'paragraph', text: 'the numbers are attached. Café at 10.' },
      { kind: 'heading', level: 2, text: 'Attachment: data.csv' },
      {
        kind: 'table',
        header: ['Name', 'Amount'],
        rows: [
          { rowNumber: 2, cells: ['Ann', '12'] },
          { rowNumber: 3, cells: ['Bob', '7.5'] },
        ],
      },
      { kind: 'heading', level: 2, text: 'Attachment: blob.bin' },
      { kind: 'paragraph', text: 'blob.bin (application/octet-stream, 8 bytes) (not a readable type)' },
      { kind: 'heading', level: 2, text: 'Attachment: broken.xlsx' },
      {
        kind: 'paragraph',
        text: expect.stringMatching(
          /^broken\.xlsx \(application\/vnd\..*\) could not be read: the XLSX file is damaged/,
        ),
      },
      { kind: 'heading', level: 2, text: 'Attachment: inner.eml' },
      { kind: 'heading', level: 3, text: 'Inner note' },
      { kind: 'paragraph', text: 'From: inner@example.com\nTo: ann@example.com\nDate: 2024-03-14T08:00:00.000Z' },
      { kind: 'paragraph', text: 'Inner body text' },
    ])
    expect(JSON.stringify(doc)).not.toContain('HTML version')
  })

  it('reads an HTML-only body as HTML (structure kept, scripts dropped)', async () => {
    const eml = [
      'From: news@example.com',
      'To: you@example.com',
      'Subject: Newsletter',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=iso-8859-1',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      '<html><body><script>track()</script><h1>Caf=E9 news</h1><p>Open daily.</p>',
      '<table><tr><th>Day</th><th>Hours</th></tr><tr><td>Mon</td><td>8-18</td></tr></table></body></html>',
    ].join('\r\n')
    const doc = await parseEml('news.eml', eml)
    expect(plainBlocks(doc.blocks)).toEqual([
      { kind: 'heading', level: 1, text: 'Newsletter' },
      { kind: 'paragraph', text: 'From: news@example.com\nTo: you@example.com' },
      { kind: 'heading', level: 2, text: 'Café news' },
      { kind: 'paragraph', text: 'Open daily.' },
      { kind: 'table', header: ['Day', 'Hours'], rows: [{ rowNumber: 2, cells: ['Mon', '8-18'] }] },
    ])
  })

  it(`reads nested messages ${MAX_EMAIL_DEPTH} levels deep, then only notes them`, async () => {
    let eml = 'From: level5@example.com\r\nSubject: Level 5\r\n\r\nDeepest body\r\n'
    for (let level = 4; level >= 0; level--) {
      eml = message(
        `From: level${level}@example.com\r\nSubject: Level ${level}\r\n`,
        [
          `Content-Type: text/plain\r\n\r\nBody ${level}`,
          `Content-Type: message/rfc822\r\nContent-Disposition: attachment; filename="level${level + 1}.eml"\r\n\r\n${eml}`,
        ],
        `B${level}`,
      )
    }
    const doc = await parseEml('deep.eml', eml)
    expect(headings(doc.blocks)).toEqual([
      '1 Level 0',
      '2 Attachment: level1.eml',
      '3 Level 1',
      '4 Attachment: level2.eml',
      '5 Level 2',
      '6 Attachment: level3.eml',
      '6 Level 3',
      '6 Attachment: level4.eml',
    ])
    const text = JSON.stringify(doc)
    expect(text).toContain('Body 3')
    expect(text).toContain(`not read: messages nested more than ${MAX_EMAIL_DEPTH} deep`)
    expect(text).not.toContain('Body 4')
  })

  it('reads at most 20 attachments and notes the rest', async () => {
    const parts = ['Content-Type: text/plain\r\n\r\nSee attached.']
    for (let i = 1; i <= 22; i++) parts.push(attachment(`note${i}.txt`, 'text/plain', `Note number ${i}`))
    const doc = await parseEml(
      'many.eml',
      message('From: a@example.com\r\nTo: b@example.com\r\nSubject: Many\r\n', parts),
    )
    const text = JSON.stringify(doc)
    expect(text).toContain('Note number 20')
    expect(text).not.toContain('Note number 21')
    expect(
      doc.blocks.filter((block) => block.kind === 'paragraph' && /more than 20 attachments/.test(block.text)),
    ).toHaveLength(2)
  })

  it('reads a UTF-16 file and a message without headers', async () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode('From: a@example.com\r\nSubject: Wide\r\n\r\nWide body é\r\n', 'utf-16le'),
    ])
    const doc = await parseEml('wide.eml', utf16)
    expect(doc.title).toBe('Wide')
    expect(doc.blocks.at(-1)).toEqual({ kind: 'paragraph', text: 'Wide body é' })

    const bare = await parseEml('bare.eml', 'just some text\r\n')
    expect(bare.title).toBeUndefined()
    expect(bare.blocks).toEqual([{ kind: 'paragraph', text: 'just some text' }])
  })

  it('throws only IngestErrors', async () => {
    const error = await emailParser.parse(inputFor('/nonexistent/missing.eml', EML)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).permanent).toBe(false)
  })

  const dir = robustnessDir()
  it.skipIf(!dir)('parses every eml in the robustness corpus or rejects it with an IngestError', async () => {
    const files = filesWithExtensions(dir as string, ['eml'])
    expect(files.length).toBeGreaterThan(10)
    const { parsed, rejected } = await realFilePass(emailParser, files, () => EML)
    expect(rejected).toEqual([])
    expect(parsed).toBe(files.length)
  })
})
