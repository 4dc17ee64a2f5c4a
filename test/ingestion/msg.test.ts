import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { codepageEncoding } from '../../src/ingestion/detection/text-decoding.js'
import type { Block, ParsedDocument } from '../../src/ingestion/model.js'
import { createEmailParser } from '../../src/ingestion/parsers/email.js'
import { parserFor, supportedMimeTypes } from '../../src/ingestion/parsers/registry.js'
import { ingestFailure } from './ocr-support.js'

const emailParser = createEmailParser({ parserFor, supportedMimeTypes })

import { expectWellFormed, inputFor, robustnessDir, tempFiles } from './text-formats-support.js'

const MSG = 'application/vnd.ms-outlook'
const dir = robustnessDir()
const file = tempFiles()
const real = (name: string): string => join(dir as string, name)
const parseMsg = (path: string): Promise<ParsedDocument> => parserFor(MSG).parse(inputFor(path, MSG))
const texts = (blocks: readonly Block[]): string[] => blocks.map((b) => (b.kind === 'table' ? '' : b.text))

describe('Outlook .msg parser', () => {
  it('maps Windows code pages to decoders', () => {
    expect(codepageEncoding(950)).toBe('cp950')
    expect(codepageEncoding(1252)).toBe('cp1252')
    expect(codepageEncoding(65001)).toBe('utf-8')
    expect(codepageEncoding(28591)).toBe('iso-8859-1')
    expect(codepageEncoding(936)).toBe('gbk')
    expect(codepageEncoding(undefined)).toBeNull()
    expect(codepageEncoding(50220)).toBeNull()
  })

  it('no message parser nor the attachment reader imports the registry (no import cycle)', () => {
    for (const module of ['msg.ts', 'email.ts', 'attachments.ts']) {
      const source = readFileSync(new URL(`../../src/ingestion/parsers/${module}`, import.meta.url), 'utf8')
      expect(source).not.toMatch(/registry\.js/)
    }
  })

  it('rejects bytes that are not an Outlook item as damaged', async () => {
    const path = await file('not.msg', 'plain text, not a compound file')
    const error = await ingestFailure(parseMsg(path))
    expect(error).toMatchObject({ permanent: true })
    expect(error.message).toMatch(/^the MSG file is damaged or truncated: /)
  })
})

describe.skipIf(!dir)('Outlook .msg parser: real files', () => {
  it('reads subject, sender, recipients, date and body like an e-mail (testMSG.msg)', async () => {
    const doc = await parseMsg(real('tika-test-documents/testMSG.msg'))
    expectWellFormed(doc)
    expect(doc.title).toBe('MIME registry use cases')
    expect(doc.pageCount).toBe(1)
    expect(doc.blocks[0]).toEqual({ kind: 'heading', level: 1, text: 'MIME registry use cases' })
    expect(doc.blocks[1]).toEqual({
      kind: 'paragraph',
      text: 'From: Jukka Zitting <jukka.zitting@gmail.com>\nTo: tika-dev@lucene.apache.org\nDate: 2009-01-29T19:16:40.000Z',
    })
    const body = texts(doc.blocks.slice(2)).join('\n')
    expect(body).toContain("As discussed, I've been working on making the type detection code more")
    expect(body).toContain('Jukka Zitting')
    expect(doc.blocks.every((b) => b.page === undefined)).toBe(true)
  })

  it('decodes the 8-bit strings of an older item with its code page (testMSG_chinese.msg, Big5)', async () => {
    const doc = await parseMsg(real('tika-test-documents/testMSG_chinese.msg'))
    expect(doc.title).toBe('Alfresco MSG format testing ( MSG 格式測試 )')
    const all = texts(doc.blocks).join('\n')
    expect(all).toContain('From: Tests Chang@FT (張毓倫)')
    expect(all).toContain('To: Tests Chang@FT (張毓倫) <tests.chang@fengttt.com>')
    expect(all).toContain('中文測試')
    expect(all).toContain('恭喜 HQ 保全課')
    expect(all).not.toMatch(/[®¤¥]/)
  })

  it('reads attachments with the parser of their type, under "Attachment: <name>"', async () => {
    const doc = await parseMsg(real('unstructured-example-docs/fake-email-attachment.msg'))
    expect(doc.title).toBe('Fake email with attachment')
    expect(texts(doc.blocks)).toContain(
      'From: Mallori Harrell <mallori@unstructured.io>\nTo: Mallori Harrell <mallori@unstructured.io>\nDate: 2022-12-23T18:08:48.000Z',
    )
    const at = doc.blocks.findIndex((b) => b.kind === 'heading' && b.text === 'Attachment: fake-attachment.txt')
    expect(at).toBeGreaterThan(2)
    expect(doc.blocks[at]).toMatchObject({ level: 2 })
    expect(doc.blocks[at + 1]).toEqual({ kind: 'paragraph', text: 'Hey this is a fake attachment!' })
    expect(texts(doc.blocks.slice(0, at)).join('\n')).toContain("Here's the attachments!")
  })

  it('leaves out the pictures an HTML body shows, reading the body (test-outlook2003.msg)', async () => {
    const doc = await parseMsg(real('tika-test-documents/test-outlook2003.msg'))
    expect(doc.title).toBe('Welcome to Microsoft Office Outlook 2003')
    const all = texts(doc.blocks).join('\n')
    expect(all).toContain('From: Microsoft Outlook 2003 Team <olteam@microsoft.com>\nTo: New Outlook User')
    expect(all).toContain('Thank you for using Microsoft® Office Outlook® 2003!')
    expect(all).toContain('Junk E-mail Filter')
    // Its eleven JPEGs are the HTML body's icons (PidTagAttachFlags ATT_MHTML_REF), not documents.
    expect(all).not.toContain('Attachment:')
  })

  it('ends an encrypted item (PGP/MIME) in a permanent "encrypted" error', async () => {
    const error = await ingestFailure(parseMsg(real('unstructured-example-docs/fake-encrypted.msg')))
    expect(error).toMatchObject({ message: 'the e-mail (MSG) is encrypted (PGP/MIME)', permanent: true })
  })

  it('reads an Outlook item attached to an e-mail through the registry (eml → msg → txt)', async () => {
    const msg = readFileSync(real('unstructured-example-docs/fake-email-attachment.msg'))
    const eml = [
      'From: ann@example.com',
      'To: bob@example.com',
      'Subject: Forwarded item',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="B"',
      '',
      '--B',
      'Content-Type: text/plain',
      '',
      'See the attached item.',
      '--B',
      'Content-Type: application/octet-stream; name="item.msg"',
      'Content-Disposition: attachment; filename="item.msg"',
      'Content-Transfer-Encoding: base64',
      '',
      msg.toString('base64').replace(/.{1,76}/g, '$&\r\n'),
      '--B--',
      '',
    ].join('\r\n')
    const doc = await emailParser.parse(inputFor(await file('forward.eml', eml), 'message/rfc822'))
    const all = texts(doc.blocks)
    expect(all).toContain('Attachment: item.msg')
    expect(all).toContain('Fake email with attachment')
    expect(all).toContain('Attachment: fake-attachment.txt')
    expect(all).toContain('Hey this is a fake attachment!')
  })
})
