/**
 * The one error vocabulary of the service. Domain code throws AppError with a stable code;
 * the HTTP layer alone maps codes to statuses (src/http/plugins/errors.ts) and the CLI to exit codes.
 */
export const ERROR_CODES = [
  'validation_failed',
  'malformed_json',
  'invalid_reference',
  'invalid_path',
  'not_a_file',
  'manual_filters_disabled',
  'data_analysis_disabled',
  'not_a_table',
  'document_not_ready',
  'table_too_large',
  'unauthenticated',
  'invalid_token',
  'invalid_client',
  'license_expired',
  'questions_quota_exceeded',
  'not_found',
  'already_exists',
  'default_bot_protected',
  'tag_in_use',
  'payload_too_large',
  'knowledge_base_full',
  'unsupported_media_type',
  'rate_limited',
  'internal',
  'shutting_down',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** One field-level problem of a rejected input. */
export interface FieldError {
  readonly path: string
  readonly message: string
}

export class AppError extends Error {
  override readonly name = 'AppError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors: readonly FieldError[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

export const errors = {
  validation: (message: string, fieldErrors: readonly FieldError[] = []) =>
    new AppError('validation_failed', message, fieldErrors),
  field: (path: string, message: string) =>
    new AppError('validation_failed', `${path}: ${message}`, [{ path, message }]),
  invalidReference: (path: string, kind: string, id: string) =>
    new AppError('invalid_reference', `${kind} ${id} does not exist`, [{ path, message: `unknown ${kind} id` }]),
  invalidPath: (path: string, message: string) => new AppError('invalid_path', message, [{ path, message }]),
  notFound: (kind: string, id: string) => new AppError('not_found', `${kind} ${id} was not found`),
  alreadyExists: (kind: string, name: string) => new AppError('already_exists', `${kind} "${name}" already exists`),
  unauthenticated: (message = 'an Authorization: Bearer token is required') => new AppError('unauthenticated', message),
  invalidToken: () => new AppError('invalid_token', 'the access token is invalid, expired or revoked'),
  invalidClient: () => new AppError('invalid_client', 'unknown client or wrong credentials'),
  licenseExpired: () => new AppError('license_expired', 'the company licence has expired'),
  knowledgeBaseFull: (maxLabel: string) =>
    new AppError(
      'knowledge_base_full',
      `the upload would take the knowledge base past its licence limit of ${maxLabel}`,
    ),
  payloadTooLarge: (limitBytes: number) =>
    new AppError('payload_too_large', `the request body is larger than the limit of ${limitBytes} bytes`),
  unsupportedMediaType: (message: string) => new AppError('unsupported_media_type', message),
  internal: (cause?: unknown) => new AppError('internal', 'internal error', [], { cause }),
}
