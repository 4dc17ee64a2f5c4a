import { parseArgs } from 'node:util'
import type { AppContext } from '../../app-context.js'
import type { Config } from '../../config.js'
import type { ClientCredentials, CompanyUpdate, NewCompany } from '../../domain/companies/companies.js'
import { endOfDay } from '../../lib/clock.js'
import { formatByteSize, parseByteSize } from '../../lib/sizes.js'
import type { CompanyRecord } from '../../storage/ports/companies.js'
import { UsageError } from '../exit-codes.js'

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

/** A command, once its command line is checked: what it does with the configured store. */
type Run = (config: Config) => Promise<void>

/** A command over the services: opens the store (migrating the embedded one), runs, closes it. */
function withServices(run: (ctx: AppContext) => Promise<void>): Run {
  return async (config) => {
    // Loaded here rather than with this file, so that `lantern admin … --help` does not load the service.
    const { buildAppContext } = await import('../../app-context.js')
    // Embedded SQLite has no separate migrate step; PostgreSQL must have been migrated already.
    const ctx = await buildAppContext(config, { migrate: !config.databaseUrl })
    try {
      await run(ctx)
    } finally {
      await ctx.close()
    }
  }
}

interface AdminCommand {
  /** What `lantern admin <command> --help` prints. */
  readonly usage: string
  /** Checks the flags and returns what the command does, so a bad command line is reported before the store is opened. */
  readonly prepare: (values: Values, print: Print) => Run
}

/** The licence flags of `company create` and `company update`. */
const LICENCE_FLAGS = `  --idp-id I              idp_id of the company
  --license-type T        upper-case letters, digits and _, e.g. BASIC, DEMO, PRESALES
  --kb-max 10GB           largest total size of the stored files: a number with a unit B, KB, MB,
                          GB or TB (powers of 1024), e.g. 512MB, 1.5TB
  --questions-max N       questions the company may ask over its lifetime
  --expires YYYY-MM-DD    last day of the licence; it ends at the end of that day, UTC`

/** Every `lantern admin` command by name, each with its usage. */
const COMMANDS = new Map<string, AdminCommand>([
  [
    'migrate',
    {
      usage: `usage: lantern admin migrate [--json]

  Applies pending schema migrations to the configured store and prints them (with --json
  {"applied": [...]}; "up to date" when there was nothing to do). Needed once per PostgreSQL
  database and after an upgrade that brings a migration; the embedded store migrates itself on
  start, but the command works there too. Safe to run from several machines at once.`,
      prepare: (values, print) => async (config) => {
        const { openDatabase } = await import('../../storage/database.js')
        const { migrateToLatest } = await import('../../storage/migrate.js')
        const handle = openDatabase(config)
        try {
          const applied = await migrateToLatest(handle.db, handle.dialect)
          show(print, values.json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'up to date')
        } finally {
          await handle.close()
        }
      },
    },
  ],
  [
    'company create',
    {
      usage: `usage: lantern admin company create --name N [--app-name A] [--idp-id I] [--license-type T]
                                    [--kb-max 10GB] [--questions-max N] [--expires YYYY-MM-DD] [--json]

  Creates a company with its default bot and a first API client, and prints the client's
  credentials (with --json {"company_id","app_name","client_id","client_secret"}). The secret is
  shown only here: it is stored hashed.
  --name N                company name, 1 to 200 characters (required)
  --app-name A            app_name of the first client, which its token requests send
${LICENCE_FLAGS}
  Defaults: --app-name lantern, --license-type BASIC, --kb-max 10GB, --questions-max 10000, no
  idp_id, no expiry.`,
      prepare: (values, print) => {
        const input: NewCompany = {
          ...licenceOptions(values),
          name: required(values, 'name'),
          appName: values['app-name'],
        }
        return withServices(async (ctx) =>
          showCredentials(print, values.json, (await ctx.services.companies.create(input)).credentials),
        )
      },
    },
  ],
  [
    'company list',
    {
      usage: `usage: lantern admin company list [--json]

  Every company with its licence and consumption: name, licence type and expiry, knowledge base
  size limit, questions allowed and used, default bot.`,
      prepare: (values, print) =>
        withServices(async (ctx) => {
          const list = (await ctx.services.companies.list()).map(companyLine)
          show(print, values.json, list, list.map((c) => `${c.company_id}  ${c.name}  ${c.license_type}`).join('\n'))
        }),
    },
  ],
  [
    'company update',
    {
      usage: `usage: lantern admin company update --id ID [--name N] [--idp-id I] [--license-type T]
                                    [--kb-max 10GB] [--questions-max N] [--expires YYYY-MM-DD] [--json]

  Changes the given fields of company --id and leaves the others alone; the change is live at
  once. Prints the company as one line of company list.
  --id ID                 the company (required)
  --name N                company name, 1 to 200 characters
${LICENCE_FLAGS}`,
      prepare: (values, print) => {
        const id = required(values, 'id')
        const changes = licenceOptions(values)
        return withServices(async (ctx) => {
          const updated = companyLine(await ctx.services.companies.update(id, changes))
          show(print, values.json, updated, `updated ${updated.company_id}`)
        })
      },
    },
  ],
  [
    'client create',
    {
      usage: `usage: lantern admin client create --company ID [--app-name A] [--json]

  A further API client for company --company, with its own secret (--app-name: its app_name,
  default lantern); prints its credentials like company create. Use one client per application,
  so that each can be rotated or disabled alone.`,
      prepare: (values, print) => {
        const companyId = required(values, 'company')
        return withServices(async (ctx) =>
          showCredentials(print, values.json, await ctx.services.companies.createClient(companyId, values['app-name'])),
        )
      },
    },
  ],
  [
    'client list',
    {
      usage: `usage: lantern admin client list --company ID [--json]

  The clients of company --company (never their secrets): client id, app_name, disabled, created.`,
      prepare: (values, print) => {
        const companyId = required(values, 'company')
        return withServices(async (ctx) => {
          const list = (await ctx.services.companies.listClients(companyId)).map((c) => ({
            client_id: c.clientId,
            app_name: c.appName,
            disabled: c.disabled,
            created_at: c.createdAt,
          }))
          const human = list.map((c) => `${c.client_id}  ${c.app_name}${c.disabled ? '  (disabled)' : ''}`).join('\n')
          show(print, values.json, list, human)
        })
      },
    },
  ],
  [
    'client rotate',
    {
      usage: `usage: lantern admin client rotate --client-id C [--json]

  Gives client --client-id a new secret and prints its credentials. Every token issued to the
  client stops working at once, and the old secret is refused from then on.`,
      prepare: (values, print) => {
        const clientId = required(values, 'client-id')
        return withServices(async (ctx) =>
          showCredentials(print, values.json, await ctx.services.companies.rotateSecret(clientId)),
        )
      },
    },
  ],
  [
    'client disable',
    {
      usage: `usage: lantern admin client disable --client-id C [--json]

  Disables client --client-id: its tokens stop working at once and it gets no new ones. Other
  clients of the company are not affected.`,
      prepare: (values, print) => {
        const clientId = required(values, 'client-id')
        return withServices(async (ctx) => {
          await ctx.services.companies.disableClient(clientId)
          show(print, values.json, { client_id: clientId, disabled: true }, `disabled ${clientId}`)
        })
      },
    },
  ],
  [
    'documents reprocess',
    {
      usage: `usage: lantern admin documents reprocess --company ID [--json]

  Queues every PROCESSED or ERROR document of company --company for processing again, for instance
  after an upgrade that reads documents better (cards, tables, terms). Each stays searchable as it
  was until a worker takes it; documents waiting or being processed are left alone. Prints the
  number queued.`,
      prepare: (values, print) => {
        const companyId = required(values, 'company')
        return withServices(async (ctx) => {
          const queued = await ctx.services.knowledgeBase.reprocessCompany(companyId)
          show(print, values.json, { company_id: companyId, queued }, `queued ${queued} documents of ${companyId}`)
        })
      },
    },
  ],
])

/** The overview of `lantern admin`; each command's own usage is with it in COMMANDS. */
export const ADMIN_USAGE = `usage: lantern admin <command> [--json]

  migrate                                   apply pending database migrations
  company create --name N [--app-name A] [--idp-id I] [--license-type T] [--kb-max 10GB]
                 [--questions-max N] [--expires YYYY-MM-DD] [--json]
  company list [--json]
  company update --id ID [--name N] [--idp-id I] [--license-type T] [--kb-max 10GB]
                 [--questions-max N] [--expires YYYY-MM-DD] [--json]
  client create --company ID [--app-name A] [--json]
  client list --company ID [--json]
  client rotate --client-id C [--json]      new secret; tokens of the old one die at once
  client disable --client-id C [--json]     the client and its tokens stop working
  documents reprocess --company ID [--json] process every document again (after an upgrade:
                                            cards, tables, terms); each stays searchable until
                                            a worker takes it

  lantern admin <command> --help tells more about one. --json prints one JSON value on one line.
Uses the same environment as the server (LANTERN_DATA_DIR, LANTERN_DATABASE_URL).`

/** The command a command line names (`migrate`, or a group and an action) and the first word after it. */
function commandOf(words: readonly string[]): { command?: AdminCommand; extra?: string } {
  const [group = '', action] = words
  const single = COMMANDS.get(group)
  if (single) return { command: single, extra: action }
  return { command: COMMANDS.get(`${group} ${action ?? ''}`), extra: words[2] }
}

function unknownCommand(words: readonly string[]): UsageError {
  return new UsageError(
    words.length === 0
      ? `a command is required\n\n${ADMIN_USAGE}`
      : `unknown command "admin ${words.join(' ')}"\n\n${ADMIN_USAGE}`,
  )
}

/**
 * What `lantern admin … --help` prints: the usage of the command named, those of a group's commands
 * (`lantern admin company --help`), or the overview. Reads the command line leniently, since help
 * must answer whatever flags surround it; an unknown command is still a usage error.
 */
export function adminHelp(args: readonly string[]): string {
  const { positionals } = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: false })
  if (positionals.length === 0) return ADMIN_USAGE
  const { command } = commandOf(positionals)
  if (command) return command.usage
  const group = positionals.length === 1 ? [...COMMANDS].filter(([name]) => name.startsWith(`${positionals[0]} `)) : []
  if (group.length === 0) throw unknownCommand(positionals)
  return group.map(([, member]) => member.usage).join('\n\n')
}

/** `lantern admin …`: provisioning against the configured store. */
export async function runAdmin(config: Config, argv: readonly string[], print: Print): Promise<void> {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  const { command, extra } = commandOf(positionals)
  if (!command) throw unknownCommand(positionals)
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"\n\n${command.usage}`)
  await command.prepare(values, print)(config)
}
