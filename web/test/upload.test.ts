import { describe, expect, it } from 'vitest'
import { ApiError, uploadWithProgress } from '../src/api'

type Progress = { loaded: number; total: number; lengthComputable: boolean }

/** An XMLHttpRequest stand-in that reports the progress events and the answer it is given. */
function fakeRequest(events: readonly Progress[], status: number, responseText: string) {
  const sent: { url?: string; headers: Record<string, string> } = { headers: {} }
  const request = {
    upload: { onprogress: null as ((event: Progress) => void) | null },
    onload: null as (() => void) | null,
    onerror: null as (() => void) | null,
    status,
    responseText,
    open(_method: string, url: string) {
      sent.url = url
    },
    setRequestHeader(name: string, value: string) {
      sent.headers[name] = value
    },
    send() {
      for (const event of events) request.upload.onprogress?.(event)
      request.onload?.()
    },
  }
  return { request: request as unknown as XMLHttpRequest, sent }
}

describe('an upload with progress', () => {
  it('reports the share sent, then 1, and resolves with the document id', async () => {
    const { request, sent } = fakeRequest(
      [
        { loaded: 0, total: 0, lengthComputable: false },
        { loaded: 250, total: 1000, lengthComputable: true },
        { loaded: 1000, total: 1000, lengthComputable: true },
      ],
      201,
      '{"id":"doc-1"}',
    )
    const shares: number[] = []
    const result = await uploadWithProgress(request, '/kb', 'tok', new FormData(), (share) => shares.push(share))
    expect(result).toEqual({ id: 'doc-1' })
    expect(shares).toEqual([0.25, 1, 1])
    expect(sent.headers.authorization).toBe('Bearer tok')
  })

  it("rejects with the problem's detail and code", async () => {
    const { request } = fakeRequest(
      [],
      409,
      '{"type":"about:blank","title":"Conflict","status":409,"code":"already_exists","detail":"a document named a.pdf exists in /"}',
    )
    const refusal = uploadWithProgress(request, '/kb', null, new FormData(), () => {})
    await expect(refusal).rejects.toBeInstanceOf(ApiError)
    await expect(refusal).rejects.toMatchObject({
      code: 'already_exists',
      message: 'a document named a.pdf exists in /',
    })
  })
})
