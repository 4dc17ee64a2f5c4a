/**
 * A document that cannot be ingested. `permanent` failures (unsupported type, corrupt or
 * password-protected file, a limit breached) end the document in ERROR at once; others are
 * retried with backoff. The message is what users read in `error_details`.
 */
export class IngestError extends Error {
  override readonly name = 'IngestError'
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

export const ingestErrors = {
  unsupported: (mimeType: string) => new IngestError(`unsupported file type: ${mimeType}`, true),
  corrupt: (format: string, detail: string, cause?: unknown) =>
    new IngestError(`the ${format} file is damaged or truncated: ${detail}`, true, { cause }),
  /** `format`: `PDF`, `XLSX`, `ODT`… */
  passwordProtected: (format = 'PDF') => new IngestError(`the ${format} is password-protected`, true),
  /** Encrypted for its recipients (`how`: `PGP/MIME`, `S/MIME`…) or by DRM: unreadable without their keys. */
  encrypted: (format: string, how: string) => new IngestError(`the ${format} is encrypted (${how})`, true),
  limit: (what: string) => new IngestError(`limit exceeded: ${what}`, true),
  /** A format read through LibreOffice on a server without it: says what to install. */
  needsLibreOffice: (format: string) =>
    new IngestError(
      `reading ${format} files needs LibreOffice, which is not installed on the server: install it (Debian and ` +
        'Ubuntu: apt-get install libreoffice-calc-nogui libreoffice-impress-nogui libreoffice-writer-nogui), ' +
        'restart Lantern, then process the document again',
      true,
    ),
}
