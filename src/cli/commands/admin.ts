import { parseArgs } from 'node:util'
import { buildAppContext } from '../../app-context.js'
import type { Config } from '../../config.js'
import type { ClientCredentials, CompanyUpdate, NewCompany } from '../../domain/companies/companies.js'
import { endOfDay } from '../../lib/clock.js'
import { formatByteSize, parseByteSize } from '../../lib/sizes.js'
import { openDatabase } from '../../storage/database.js'
import { migrateToLatest } from '../../storage/migrate.js'
import type { CompanyRecord } from '../../storage/ports/companies.js'
import { UsageError } from '../exit-codes.js'

export const ADMIN_USAGE = `lantern admin <command>

  migrate                                   apply pending database migrations
  company create --name N [--app-name A] [--idp-id I] [--license-type T] [--kb-max 10GB]
                 [--questions-max N] [--expires YYYY-MM-DD] [--json]
  company list [--json]
  company update --id ID [--name N] [--idp-id I] [--license-type T] [--kb-max 10GB]
                 [--questions-max N] [--expires YYYY-MM-DD] [--json]
  client create --company ID [--app-name A] [--json]
  client list --company ID [--json]
  client rotate --client-id C [--json]      new secret; tokens of the old one die at once
  client disable --client-id C              the client and its tokens stop working

Uses the same environment as the server (LANTERN_DATA_DIR, LANTERN_DATABASE_URL).`

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

/** `lantern admin …`: provisioning against the configured store. */
export async function runAdmin(config: Config, argv: readonly string[], print: Print): Promise<void> {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  const [group, action] = positionals
  if (group === 'migrate') {
    const handle = openDatabase(config)
    try {
      const applied = await migrateToLatest(handle.db, handle.dialect)
      show(print, values.json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'up to date')
    } finally {
      await handle.close()
    }
    return
  }
  if (group !== 'company' && group !== 'client') throw new UsageError(ADMIN_USAGE)

  // Embedded SQLite has no separate migrate step; PostgreSQL must have been migrated already.
  const ctx = await buildAppContext(config, { migrate: !config.databaseUrl })
  try {
    const companies = ctx.services.companies
    const command = `${group} ${action ?? ''}`
    switch (command) {
      case 'company create': {
        const input: NewCompany = {
          ...licenceOptions(values),
          name: required(values, 'name'),
          appName: values['app-name'],
        }
        showCredentials(print, values.json, (await companies.create(input)).credentials)
        return
      }
      case 'company list': {
        const list = (await companies.list()).map(companyLine)
        show(print, values.json, list, list.map((c) => `${c.company_id}  ${c.name}  ${c.license_type}`).join('\n'))
        return
      }
      case 'company update': {
        const updated = companyLine(await companies.update(required(values, 'id'), licenceOptions(values)))
        show(print, values.json, updated, `updated ${updated.company_id}`)
        return
      }
      case 'client create': {
        showCredentials(
          print,
          values.json,
          await companies.createClient(required(values, 'company'), values['app-name']),
        )
        return
      }
      case 'client list': {
        const list = (await companies.listClients(required(values, 'company'))).map((c) => ({
          client_id: c.clientId,
          app_name: c.appName,
          disabled: c.disabled,
          created_at: c.createdAt,
        }))
        show(
          print,
          values.json,
          list,
          list.map((c) => `${c.client_id}  ${c.app_name}${c.disabled ? '  (disabled)' : ''}`).join('\n'),
        )
        return
      }
      case 'client rotate': {
        showCredentials(print, values.json, await companies.rotateSecret(required(values, 'client-id')))
        return
      }
      case 'client disable': {
        const clientId = required(values, 'client-id')
        await companies.disableClient(clientId)
        show(print, values.json, { client_id: clientId, disabled: true }, `disabled ${clientId}`)
        return
      }
      default:
        throw new UsageError(ADMIN_USAGE)
    }
  } finally {
    await ctx.close()
  }
}
