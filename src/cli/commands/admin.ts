import { parseArgs } from 'node:util'
import { type AppContext, buildAppContext } from '../../app-context.js'
import type { Config } from '../../config.js'
import type { ClientCredentials, CompanyUpdate, NewCompany } from '../../domain/companies/companies.js'
import { endOfDay } from '../../lib/clock.js'
import { formatByteSize, parseByteSize } from '../../lib/sizes.js'
import { openDatabase } from '../../storage/database.js'
import { migrateToLatest } from '../../storage/migrate.js'
import type { CompanyRecord } from '../../storage/ports/companies.js'
import { UsageError } from '../exit-codes.js'
import { ADMIN_USAGE } from '../usage.js'

const OPTIONS = {
  name: { type: 'string' },
  'app-name': { type: 'string' },
  'idp-id': { type: 'string' },
  'license-type': { type: 'string' },
  'kb-max': { type: 'string' },
  'questions-max': { type: 'string' },
  expires: { type: 'string' },
  id: { type: 'string' },
  company: { type: 'string' },
  'client-id': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

function required(values: Values, name: 'name' | 'id' | 'company' | 'client-id'): string {
  const value = values[name]
  if (!value) throw new UsageError(`--${name} is required`)
  return value
}

function licenceOptions(values: Values): CompanyUpdate {
  const changes: { -readonly [K in keyof CompanyUpdate]: CompanyUpdate[K] } = {}
  if (values['kb-max'] !== undefined) {
    const bytes = parseByteSize(values['kb-max'])
    if (bytes === undefined || bytes < 1) throw new UsageError('--kb-max must be a size like 10GB (B, KB, MB, GB, TB)')
    changes.kbMaxBytes = bytes
  }
  if (values['questions-max'] !== undefined) {
    if (!/^\d+$/.test(values['questions-max'])) throw new UsageError('--questions-max must be a whole number')
    changes.questionsMax = Number(values['questions-max'])
  }
  if (values.expires !== undefined) {
    const date = values.expires
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
      throw new UsageError('--expires must be a date YYYY-MM-DD')
    }
    changes.licenseExpiration = endOfDay(date)
  }
  if (values['license-type'] !== undefined) {
    if (!/^[A-Z0-9_]{1,50}$/.test(values['license-type'])) {
      throw new UsageError('--license-type must be upper-case letters, digits or _ (e.g. BASIC, DEMO, PRESALES)')
    }
    changes.licenseType = values['license-type']
  }
  if (values['idp-id'] !== undefined) changes.idpId = values['idp-id']
  if (values.name !== undefined) changes.name = values.name
  return changes
}

function companyLine(c: CompanyRecord) {
  return {
    company_id: c.id,
    name: c.name,
    license_type: c.licenseType,
    expiration: c.licenseExpiration,
    knowledge_base_size_max: formatByteSize(c.kbMaxBytes),
    questions_max: c.questionsMax,
    questions_used: c.questionsUsed,
    default_bot_id: c.defaultBotId,
  }
}

type Print = (text: string) => void

function show(print: Print, json: boolean, value: unknown, human: string): void {
  print(json ? JSON.stringify(value) : human)
}

/** Credentials in the shape scripts read: {company_id, app_name, client_id, client_secret}. */
export function credentialsJson(c: ClientCredentials) {
  return { company_id: c.companyId, app_name: c.appName, client_id: c.clientId, client_secret: c.clientSecret }
}

function showCredentials(print: Print, json: boolean, credentials: ClientCredentials): void {
  const out = credentialsJson(credentials)
  show(
    print,
    json,
    out,
    Object.entries(out)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  )
}

type CompanyCommand = (ctx: AppContext) => Promise<void>

/**
 * Checks the arguments of a `company …`/`client …` command and returns what it will do, so a bad
 * command line is reported before the store is opened.
 */
function prepare(command: string, values: Values, print: Print): CompanyCommand {
  const json = values.json
  switch (command) {
    case 'company create': {
      const input: NewCompany = {
        ...licenceOptions(values),
        name: required(values, 'name'),
        appName: values['app-name'],
      }
      return async (ctx) => showCredentials(print, json, (await ctx.services.companies.create(input)).credentials)
    }
    case 'company list':
      return async (ctx) => {
        const list = (await ctx.services.companies.list()).map(companyLine)
        show(print, json, list, list.map((c) => `${c.company_id}  ${c.name}  ${c.license_type}`).join('\n'))
      }
    case 'company update': {
      const id = required(values, 'id')
      const changes = licenceOptions(values)
      return async (ctx) => {
        const updated = companyLine(await ctx.services.companies.update(id, changes))
        show(print, json, updated, `updated ${updated.company_id}`)
      }
    }
    case 'client create': {
      const companyId = required(values, 'company')
      return async (ctx) =>
        showCredentials(print, json, await ctx.services.companies.createClient(companyId, values['app-name']))
    }
    case 'client list': {
      const companyId = required(values, 'company')
      return async (ctx) => {
        const list = (await ctx.services.companies.listClients(companyId)).map((c) => ({
          client_id: c.clientId,
          app_name: c.appName,
          disabled: c.disabled,
          created_at: c.createdAt,
        }))
        const human = list.map((c) => `${c.client_id}  ${c.app_name}${c.disabled ? '  (disabled)' : ''}`).join('\n')
        show(print, json, list, human)
      }
    }
    case 'client rotate': {
      const clientId = required(values, 'client-id')
      return async (ctx) => showCredentials(print, json, await ctx.services.companies.rotateSecret(clientId))
    }
    case 'client disable': {
      const clientId = required(values, 'client-id')
      return async (ctx) => {
        await ctx.services.companies.disableClient(clientId)
        show(print, json, { client_id: clientId, disabled: true }, `disabled ${clientId}`)
      }
    }
    case 'documents reprocess': {
      const companyId = required(values, 'company')
      return async (ctx) => {
        const queued = await ctx.services.knowledgeBase.reprocessCompany(companyId)
        show(print, json, { company_id: companyId, queued }, `queued ${queued} documents of ${companyId}`)
      }
    }
    default:
      throw new UsageError(ADMIN_USAGE)
  }
}

/** `lantern admin …`: provisioning against the configured store. */
export async function runAdmin(config: Config, argv: readonly string[], print: Print): Promise<void> {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  const [group, action, extra] = positionals
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"\n\n${ADMIN_USAGE}`)
  if (group === 'migrate' && action === undefined) {
    const handle = openDatabase(config)
    try {
      const applied = await migrateToLatest(handle.db, handle.dialect)
      show(print, values.json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'up to date')
    } finally {
      await handle.close()
    }
    return
  }
  const run = prepare(`${group ?? ''} ${action ?? ''}`, values, print)
  // Embedded SQLite has no separate migrate step; PostgreSQL must have been migrated already.
  const ctx = await buildAppContext(config, { migrate: !config.databaseUrl })
  try {
    await run(ctx)
  } finally {
    await ctx.close()
  }
}
