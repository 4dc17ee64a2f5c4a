import { deflateSync } from 'node:zlib'
import type { DocumentRecord } from '../../src/storage/ports/knowledge-base.js'
import type { Tenant } from './factories.js'
import type { ApiResponse, TestApp } from './test-app.js'

export type FormFields = Record<string, string | readonly string[]>

export interface UploadOptions {
  readonly fields?: FormFields
  /** Put the text fields after the file part instead of before it. */
  readonly fieldsAfterFile?: boolean
  readonly token?: string
  readonly companyId?: string
}

/** POST …/knowledge-base with a real multipart body built by the platform's FormData. */
export function upload(
  t: TestApp,
  tenant: Tenant,
  name: string,
  content: string | Uint8Array,
  options: UploadOptions = {},
): Promise<ApiResponse> {
  const form = new FormData()
  const addFields = () => {
    for (const [key, value] of Object.entries(options.fields ?? {})) {
      for (const item of typeof value === 'string' ? [value] : value) form.append(key, item)
    }
  }
  if (!options.fieldsAfterFile) addFields()
  form.append('files', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name)
  if (options.fieldsAfterFile) addFields()
  return t.request('POST', `/company/${options.companyId ?? tenant.companyId}/knowledge-base`, {
    token: options.token ?? tenant.token,
    body: form,
  })
}

/** Uploads and returns the new document id, failing loudly on anything but 201 (new) or 200 (overwrite). */
export async function uploadOk(
  t: TestApp,
  tenant: Tenant,
  name: string,
  content: string | Uint8Array,
  options: UploadOptions = {},
): Promise<string> {
  const response = await upload(t, tenant, name, content, options)
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`upload failed: ${response.status} ${response.text}`)
  return response.body.id as string
}

export async function mkdir(t: TestApp, tenant: Tenant, path: string): Promise<string> {
  const response = await t.request('POST', `/company/${tenant.companyId}/knowledge-base/folders`, {
    token: tenant.token,
    json: { path },
  })
  if (response.status !== 201 && response.status !== 200) {
    throw new Error(`mkdir failed: ${response.status} ${response.text}`)
  }
  return response.body.id as string
}

export async function createTag(t: TestApp, tenant: Tenant, name: string): Promise<string> {
  const response = await t.request('POST', `/company/${tenant.companyId}/knowledge-base/tags`, {
    token: tenant.token,
    json: { name },
  })
  if (response.status !== 201) throw new Error(`tag failed: ${response.status} ${response.text}`)
  return response.body.id as string
}

export function kbPath(tenant: Tenant, suffix = ''): string {
  return `/company/${tenant.companyId}/knowledge-base${suffix}`
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A valid 1×1 RGB PNG. */
export function tinyPng(): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(1, 0)
  header.writeUInt32BE(1, 4)
  header.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** A small but well-formed one-page PDF saying `text`. */
export function tinyPdf(text: string): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let body = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((object, index) => {
    offsets.push(body.length)
    body += `${index + 1} 0 obj\n${object}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(body, 'latin1')
}

/** The stored record of a document of the tenant; throws when there is none. */
export async function documentOf(t: TestApp, tenant: Tenant, id: string): Promise<DocumentRecord> {
  const object = await t.ctx.store.knowledgeBase.findById(tenant.companyId, id)
  if (object?.kind !== 'document') throw new Error(`no document ${id}`)
  return object
}
