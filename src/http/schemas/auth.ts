import Type from 'typebox'
import { DateTime } from './common.js'

export const TokenRequest = Type.Object({
  app_name: Type.String({ minLength: 1, maxLength: 200 }),
  client_id: Type.String({ minLength: 1, maxLength: 200 }),
  client_secret: Type.String({ minLength: 1, maxLength: 500 }),
})

export const Token = Type.Object({
  access_token: Type.String(),
  expires_at: Type.Integer({ description: 'Unix time, seconds' }),
  expires_in: Type.Integer({ description: 'seconds' }),
  ext_expires_in: Type.Integer({ description: 'seconds' }),
  token_type: Type.Literal('Bearer'),
})

export const Company = Type.Object({
  idp_id: Type.String(),
  id: Type.String(),
  id_bot_default: Type.String(),
  name: Type.String(),
  create_at: DateTime,
  update_at: DateTime,
  license: Type.Object({
    expiration: DateTime,
    license_type: Type.String(),
    knowledge_base_size_max: Type.String({ description: 'size with unit, powers of 1024, e.g. 10GB' }),
    questions_max: Type.String({ description: 'digits' }),
  }),
})

const States = Type.Object({
  PENDING: Type.Integer(),
  PROCESSING: Type.Integer(),
  PROCESSED: Type.Integer(),
  ERROR: Type.Integer(),
})

export const Usage = Type.Object({
  questions_used: Type.Integer(),
  questions_max: Type.Integer(),
  knowledge_base_size_bytes: Type.Integer(),
  knowledge_base_size_max_bytes: Type.Integer(),
  documents: States,
  license_expired: Type.Boolean(),
})
