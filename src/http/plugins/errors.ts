import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, type ErrorCode, type FieldError } from '../../lib/errors.js'

const STATUS: Record<ErrorCode, number> = {
  validation_failed: 400,
  malformed_json: 400,
  invalid_reference: 400,
  invalid_path: 400,
  not_a_file: 400,
  manual_filters_disabled: 400,
  data_analysis_disabled: 400,
  not_a_table: 400,
  document_not_ready: 409,
  table_too_large: 400,
  unauthenticated: 401,
  invalid_token: 401,
  invalid_client: 401,
  license_expired: 403,
  questions_quota_exceeded: 403,
  not_found: 404,
  already_exists: 409,
  default_bot_protected: 409,
  tag_in_use: 409,
  payload_too_large: 413,
  knowledge_base_full: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  shutting_down: 503,
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

export function statusOf(code: ErrorCode): number {
  return STATUS[code]
}

/** Sends an AppError as application/problem+json. */
export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  const status = STATUS[error.code]
  if (status === 401) reply.header('WWW-Authenticate', `Bearer realm="lantern", error="${error.code}"`)
  const body: Record<string, unknown> = {
    type: `urn:lantern:problem:${error.code}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail: error.message,
    code: error.code,
  }
  if (error.fieldErrors.length > 0) body.errors = error.fieldErrors
  return reply.status(status).type('application/problem+json').send(body)
}

function fieldErrorsOf(error: FastifyError): FieldError[] {
  const context = error.validationContext ?? 'body'
  return (error.validation ?? []).map((v) => {
    const missing = (v.params as { missingProperty?: string } | undefined)?.missingProperty
    const path = `${context}${v.instancePath}${missing ? `/${missing}` : ''}`
    return { path, message: v.message ?? 'is invalid' }
  })
}

/** Translates Fastify's own errors (validation, body parsing, limits) into the error vocabulary. */
function fromFastify(error: FastifyError): AppError | undefined {
  if (error.validation) {
    const fieldErrors = fieldErrorsOf(error)
    const summary = fieldErrors.map((f) => `${f.path} ${f.message}`).join('; ')
    return new AppError('validation_failed', `invalid request: ${summary}`, fieldErrors)
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('malformed_json', 'the request body is not valid JSON')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('payload_too_large', 'the request body is larger than allowed')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('unsupported_media_type', `unsupported Content-Type; see the API documentation`)
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new AppError('validation_failed', error.message)
    default:
      if (error.statusCode === 413) return new AppError('payload_too_large', 'the request body is larger than allowed')
      if (error.statusCode === 400) return new AppError('validation_failed', error.message)
      return undefined
  }
}

/** One error handler for the whole API: every failure leaves as problem+json with a stable code. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = error instanceof AppError ? error : fromFastify(error)
    if (appError && appError.code !== 'internal') return sendProblem(reply, appError)
    request.log.error({ err: appError?.cause ?? error }, 'request failed')
    return sendProblem(reply, new AppError('internal', 'internal error'))
  })
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`)),
  )
}
