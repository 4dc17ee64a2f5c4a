import { randomUUID } from 'node:crypto'

/** A multipart/form-data request body and its Content-Type header. */
export interface MultipartBody {
  readonly body: Blob
  readonly contentType: string
}

// Inside a quoted parameter, `"` and `\` are escaped with a backslash (RFC 9110 quoted-string);
// the platform FormData percent-encodes `"` instead, which the server would keep as `%22`.
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`
}

/**
 * A multipart body with the text `fields` (a field may repeat) followed by one file part. The file
 * is a Blob, typically from `fs.openAsBlob`, so the bytes are read from disk as the body is sent;
 * the Blob's size makes the Content-Length known in advance. File names must be free of control
 * characters (the caller checks).
 */
export function multipartBody(
  fields: ReadonlyArray<readonly [string, string]>,
  file: { readonly field: string; readonly name: string; readonly blob: Blob },
): MultipartBody {
  const boundary = `lantern-${randomUUID()}`
  let head = ''
  for (const [name, value] of fields) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.field)}; filename=${quoted(file.name)}\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n'
  return {
    body: new Blob([head, file.blob, `\r\n--${boundary}--\r\n`]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}
