import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { finished, pipeline } from 'node:stream/promises'
import type { MultipartFile } from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { MAX_DESCRIPTION_LENGTH } from '../../../domain/knowledge-base/documents.js'
import type { ReceivedFile, UploadRequest } from '../../../domain/knowledge-base/uploads.js'
import { AppError, errors, type FieldError } from '../../../lib/errors.js'
import type { CsvDelimiter, LoaderType } from '../../../storage/ports/knowledge-base.js'

/** busboy limits of the upload route, besides the file size. */
export const UPLOAD_FORM_LIMITS = {
  fields: 200,
  parts: 210,
  /** Bytes per field value: room for the longest description in any script. */
  fieldSize: 64 * 1024,
} as const

const MAX_TAGS = 100
const SINGLE_FIELDS = [
  'path',
  'loader_type',
  'auto_description',
  'description',
  'overwrite',
  'csv_delimiter',
  'image_min_size_ratio',
] as const
type SingleField = (typeof SINGLE_FIELDS)[number]

function isSingleField(name: string): name is SingleField {
  return (SINGLE_FIELDS as readonly string[]).includes(name)
}

/** A malformed body, as opposed to a failure of the disk we write to. */
function malformed(error: unknown): unknown {
  if (error instanceof AppError) return error
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown }
  if (syscall !== undefined || (typeof code === 'string' && code.startsWith('FST_'))) return error
  return errors.validation('the multipart body is malformed')
}

async function drain(stream: Readable): Promise<void> {
  stream.resume()
  await finished(stream)
}

async function save(part: MultipartFile, path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256')
  let size = 0
  await pipeline(
    part.file,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk)
        size += chunk.length
        yield chunk
      }
    },
    createWriteStream(path, { flags: 'wx', mode: 0o600 }),
  )
  return { size, sha256: hash.digest('hex') }
}

/** Turns the text fields of the form into typed values, collecting every problem. */
class FieldReader {
  readonly problems: FieldError[] = []

  constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  private fail(field: string, message: string): undefined {
    this.problems.push({ path: `body/${field}`, message })
    return undefined
  }

  text(field: SingleField): string | undefined {
    const given = this.values.get(field)
    if (!given || given.length === 0) return undefined
    if (given.length > 1) return this.fail(field, 'must be given once')
    return given[0]
  }

  boolean(field: SingleField): boolean | undefined {
    const value = this.text(field)?.trim()
    if (value === undefined || value === '') return undefined
    if (/^(true|1)$/i.test(value)) return true
    if (/^(false|0)$/i.test(value)) return false
    return this.fail(field, 'must be true, false, 1 or 0')
  }

  choice<T extends string>(field: SingleField, allowed: readonly T[], fold: (v: string) => string): T | undefined {
    const value = this.text(field)?.trim()
    if (value === undefined || value === '') return undefined
    const folded = fold(value)
    if ((allowed as readonly string[]).includes(folded)) return folded as T
    return this.fail(field, `must be one of ${allowed.join(', ')}`)
  }

  ratio(field: SingleField): number | undefined {
    const value = this.text(field)?.trim()
    if (value === undefined || value === '') return undefined
    const number = Number(value)
    if (!Number.isFinite(number) || number < 0 || number > 1) return this.fail(field, 'must be a number from 0 to 1')
    return number
  }

  /** Repeated `tags` fields, each a tag id or a JSON array of ids; undefined when there is none. */
  tags(): string[] | undefined {
    const given = this.values.get('tags')
    if (!given) return undefined
    const ids: string[] = []
    for (const raw of given) {
      const value = raw.trim()
      if (value === '') continue
      if (!value.startsWith('[')) {
        ids.push(value)
        continue
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(value)
      } catch {
        return this.fail('tags', 'must be tag ids or a JSON array of tag ids')
      }
      if (!Array.isArray(parsed) || !parsed.every((id) => typeof id === 'string' && id.length > 0)) {
        return this.fail('tags', 'must be a JSON array of tag ids')
      }
      ids.push(...parsed)
    }
    if (ids.length > MAX_TAGS) return this.fail('tags', `must have at most ${MAX_TAGS} tag ids`)
    return ids
  }
}

function fieldText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  // A part sent as application/json arrives parsed; a tags array keeps its JSON form.
  if (Array.isArray(value) || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value)
  return undefined
}

/**
 * Reads the multipart upload of endpoint 13: streams the `files` part to a temporary file under
 * `tmpDir` while hashing and counting it, and parses the other fields, which may come before or
 * after the file. Throws unsupported_media_type for a body that is not multipart,
 * payload_too_large beyond `maxBytes` and validation_failed (every problem listed) for the rest;
 * on any failure the temporary file is gone. On success the caller removes `file.path`.
 */
export async function receiveUpload(
  request: FastifyRequest,
  options: { readonly tmpDir: string; readonly maxBytes: number },
): Promise<UploadRequest> {
  if (!request.isMultipart()) {
    throw errors.unsupportedMediaType('the upload must be multipart/form-data with one file part named "files"')
  }
  await mkdir(options.tmpDir, { recursive: true })
  const temp = join(options.tmpDir, `upload-${randomUUID()}`)
  try {
    const values = new Map<string, string[]>()
    const problems: FieldError[] = []
    let file: ReceivedFile | undefined
    let tooLarge = false
    const parts = request.parts()
    for (;;) {
      const next = await parts.next().catch((error: unknown) => {
        throw malformed(error)
      })
      if (next.done) break
      const part = next.value
      if (part.type === 'file') {
        if (part.fieldname !== 'files' || file || tooLarge) {
          await drain(part.file).catch((error: unknown) => {
            throw malformed(error)
          })
          problems.push({ path: `body/${part.fieldname}`, message: 'only one file part, named "files", is accepted' })
          continue
        }
        const saved = await save(part, temp).catch((error: unknown) => {
          throw malformed(error)
        })
        if (part.file.truncated) tooLarge = true
        else file = { path: temp, name: part.filename, declaredType: part.mimetype, ...saved }
        continue
      }
      const text = fieldText(part.value)
      if (text === undefined || part.valueTruncated) {
        problems.push({ path: `body/${part.fieldname}`, message: 'is too long or not a text value' })
        continue
      }
      if (part.fieldname === 'tags' || isSingleField(part.fieldname)) {
        values.set(part.fieldname, [...(values.get(part.fieldname) ?? []), text])
      }
    }
    if (tooLarge) throw errors.payloadTooLarge(options.maxBytes)

    const reader = new FieldReader(values)
    const description = reader.text('description')
    if (description !== undefined && description.length > MAX_DESCRIPTION_LENGTH) {
      reader.problems.push({
        path: 'body/description',
        message: `must be at most ${MAX_DESCRIPTION_LENGTH} characters`,
      })
    }
    const upload = {
      folder: reader.text('path') || '/',
      loaderType: reader.choice<LoaderType>('loader_type', ['ADVANCED', 'STANDARD'], (v) => v.toUpperCase()),
      autoDescription: reader.boolean('auto_description'),
      description,
      overwrite: reader.boolean('overwrite') ?? false,
      csvDelimiter: reader.choice<CsvDelimiter>('csv_delimiter', ['comma', 'semicolon', 'tab'], (v) => v.toLowerCase()),
      imageMinSizeRatio: reader.ratio('image_min_size_ratio'),
      tags: reader.tags(),
    }
    if (!file) problems.push({ path: 'body/files', message: 'a file part named "files" is required' })
    problems.push(...reader.problems)
    if (!file || problems.length > 0) {
      const summary = problems.map((p) => `${p.path} ${p.message}`).join('; ')
      throw errors.validation(`invalid upload: ${summary}`, problems)
    }
    return { ...upload, file }
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}
