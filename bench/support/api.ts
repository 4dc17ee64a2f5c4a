import { randomUUID } from 'node:crypto'
import { openAsBlob } from 'node:fs'
import type { Credentials } from './server.js'
import { BenchToken, HttpError } from './token.js'

export { HttpError }

/** Spec 2.7 processing object, as the service sends it. */
export interface Processing {
  readonly embedding_state: 'PENDING' | 'PROCESSING' | 'PROCESSED' | 'ERROR'
  readonly error_details: string
  readonly chunk_count: number
  readonly doc_pages_count: number
  readonly duration: number | null
  readonly start_timestamp: string | null
  readonly end_timestamp: string | null
}

/** Spec 2.9: parallel arrays, one position per chunk. */
export interface Chunks {
  readonly documents: string[]
  readonly ids: string[]
  readonly metadatas: Array<Record<string, unknown>>
}

/** Upload form fields besides the file (spec endpoint 13). */
export interface UploadOptions {
  /** Target folder, e.g. `/` or `/pdfjs-test-pdfs/`. */
  readonly path: string
  readonly loaderType?: 'STANDARD' | 'ADVANCED'
}

/** The few API calls the benchmarks make, with a bearer token renewed before it expires. */
export class BenchApi {
  private constructor(
    readonly base: string,
    private readonly token: BenchToken,
    readonly companyId: string,
  ) {}

  static async connect(origin: string, credentials: Credentials): Promise<BenchApi> {
    const base = `${origin}/apif/v2`
    const token = new BenchToken(base, credentials)
    const company = await request<{ id: string }>(token, `${base}/auth/company`, {})
    return new BenchApi(base, token, company.id)
  }

  private get<T>(path: string): Promise<T> {
    return request<T>(this.token, `${this.base}/company/${this.companyId}${path}`, {})
  }

  /** Uploads the file at `filePath` as `name` (streamed from disk); resolves with the document id. */
  async upload(filePath: string, name: string, options: UploadOptions): Promise<string> {
    const boundary = `bench-${randomUUID()}`
    const field = (key: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`
    let head = field('path', options.path)
    if (options.loaderType) head += field('loader_type', options.loaderType)
    const quotedName = name.replace(/[\\"]/g, (char) => `\\${char}`)
    head +=
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${quotedName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n'
    const body = new Blob([head, await openAsBlob(filePath), `\r\n--${boundary}--\r\n`])
    const answer = await request<{ id: string }>(this.token, `${this.base}/company/${this.companyId}/knowledge-base`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    })
    return answer.id
  }

  async processing(documentId: string): Promise<Processing> {
    const metadata = await this.get<{ processing: Processing }>(`/knowledge-base/${documentId}`)
    return metadata.processing
  }

  chunks(documentId: string): Promise<Chunks> {
    return this.get<Chunks>(`/knowledge-base/${documentId}/chunks`)
  }
}

async function request<T>(token: BenchToken, url: string, init: RequestInit): Promise<T> {
  const response = await token.fetch(url, init)
  const text = await response.text()
  if (!response.ok) throw new HttpError(response.status, text)
  return JSON.parse(text) as T
}
