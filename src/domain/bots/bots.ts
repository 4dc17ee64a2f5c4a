import type { Clock } from '../../lib/clock.js'
import { AppError, errors, type FieldError } from '../../lib/errors.js'
import { newId } from '../../lib/ids.js'
import type { AutoDocumentSelector, BotFilters, BotRecord } from '../../storage/ports/bots.js'
import type { Store } from '../../storage/store.js'
import { AUTOMATIC_LOCALE, isLocale } from '../../text/locales.js'
import { type FiltersInput, resolveFilters } from './filters.js'

/** Icon libraries a bot icon may come from. */
export const ICON_TYPES = ['material'] as const

/** Limits on bot text fields, in characters. */
export const BOT_LIMITS = {
  label: 200,
  description: 2000,
  promptName: 200,
  prompt: 20_000,
  iconName: 100,
} as const

export interface BotInput {
  readonly label: string
  readonly description: string
  readonly prompt: { readonly name: string; readonly prompt: string }
  readonly autoDocumentSelector?: AutoDocumentSelector
  readonly manualFilters?: boolean
  readonly dataScientistMode?: boolean
  readonly icon?: { readonly name?: string; readonly type?: string }
  readonly locale?: string
  /** On create, any of the four lists; missing ones are empty. */
  readonly filters?: FiltersInput
}

/** A partial edit: only the given fields change; a given `filters` replaces only the keys it has. */
export interface BotChanges extends Partial<Omit<BotInput, 'prompt'>> {
  readonly prompt?: { readonly name?: string; readonly prompt?: string }
}

const EMPTY_FILTERS: BotFilters = { paths: [], tags: [], defaultDocuments: [], defaultAutoDocuments: [] }

function tooLong(value: string, max: number): boolean {
  return value.length > max
}

/** Field-level rules every stored bot satisfies; paths point into the request body. */
function check(bot: BotRecord): void {
  const problems: FieldError[] = []
  const add = (path: string, message: string) => problems.push({ path, message })
  if (bot.label.length === 0) add('body/label', 'must not be blank')
  if (tooLong(bot.label, BOT_LIMITS.label)) add('body/label', `must be at most ${BOT_LIMITS.label} characters`)
  if (tooLong(bot.description, BOT_LIMITS.description)) {
    add('body/description', `must be at most ${BOT_LIMITS.description} characters`)
  }
  if (tooLong(bot.prompt.name, BOT_LIMITS.promptName)) {
    add('body/prompt/name', `must be at most ${BOT_LIMITS.promptName} characters`)
  }
  if (tooLong(bot.prompt.prompt, BOT_LIMITS.prompt)) {
    add('body/prompt/prompt', `must be at most ${BOT_LIMITS.prompt} characters`)
  }
  if (!(ICON_TYPES as readonly string[]).includes(bot.icon.type)) {
    add('body/icon/type', `must be one of ${ICON_TYPES.join(', ')}`)
  }
  if (bot.icon.name.length === 0 || tooLong(bot.icon.name, BOT_LIMITS.iconName)) {
    add('body/icon/name', `must be 1 to ${BOT_LIMITS.iconName} characters`)
  }
  if (!isLocale(bot.locale)) add('body/locale', `must be an ISO 639-1 code (lower case) or ${AUTOMATIC_LOCALE}`)
  if (problems.length > 0) {
    throw errors.validation(`invalid bot: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`, problems)
  }
}

export interface BotServiceDeps {
  readonly store: Store
  readonly clock: Clock
}

/** The bots of a company: what each answers from and how. Every call is scoped to one company. */
export class BotService {
  constructor(private readonly deps: BotServiceDeps) {}

  /** Creates a bot with the documented defaults; filter references must exist in the company. */
  async create(companyId: string, input: BotInput): Promise<BotRecord> {
    const now = this.deps.clock.now()
    const filters = await resolveFilters(this.deps.store, companyId, input.filters ?? {})
    const bot: BotRecord = {
      id: newId(),
      companyId,
      label: input.label.trim(),
      description: input.description,
      prompt: { name: input.prompt.name, prompt: input.prompt.prompt },
      autoDocumentSelector: input.autoDocumentSelector ?? 'choose',
      manualFilters: input.manualFilters ?? false,
      dataScientistMode: input.dataScientistMode ?? false,
      icon: { name: input.icon?.name ?? 'smart_toy', type: input.icon?.type ?? 'material' },
      locale: input.locale ?? AUTOMATIC_LOCALE,
      filters: { ...EMPTY_FILTERS, ...filters },
      createdAt: now,
      updatedAt: now,
    }
    check(bot)
    await this.deps.store.bots.insert(bot)
    return bot
  }

  /** Bots of the company, oldest first. */
  async list(companyId: string, offset: number, limit: number): Promise<BotRecord[]> {
    return this.deps.store.bots.list(companyId, offset, limit)
  }

  /** The bot, or not_found when it does not exist in this company (other companies' bots included). */
  async require(companyId: string, botId: string): Promise<BotRecord> {
    const bot = await this.deps.store.bots.findById(companyId, botId)
    if (!bot) throw errors.notFound('bot', botId)
    return bot
  }

  /** The bot named inside a request body, or invalid_reference at `field`. */
  async requireReference(companyId: string, botId: string, field: string): Promise<BotRecord> {
    const bot = await this.deps.store.bots.findById(companyId, botId)
    if (!bot) throw errors.invalidReference(field, 'bot', botId)
    return bot
  }

  /** Applies the given fields only and returns the whole updated bot. */
  async update(companyId: string, botId: string, changes: BotChanges): Promise<BotRecord> {
    const current = await this.require(companyId, botId)
    const filters = changes.filters ? await resolveFilters(this.deps.store, companyId, changes.filters) : {}
    const bot: BotRecord = {
      ...current,
      label: changes.label?.trim() ?? current.label,
      description: changes.description ?? current.description,
      prompt: { ...current.prompt, ...defined(changes.prompt) },
      autoDocumentSelector: changes.autoDocumentSelector ?? current.autoDocumentSelector,
      manualFilters: changes.manualFilters ?? current.manualFilters,
      dataScientistMode: changes.dataScientistMode ?? current.dataScientistMode,
      icon: { ...current.icon, ...defined(changes.icon) },
      locale: changes.locale ?? current.locale,
      filters: { ...current.filters, ...filters },
      updatedAt: this.deps.clock.now(),
    }
    check(bot)
    await this.deps.store.bots.replace(bot)
    return bot
  }

  /**
   * Deletes a bot; its chats move to the company's default bot in the same transaction. The
   * default bot itself is protected (default_bot_protected).
   */
  async delete(companyId: string, botId: string): Promise<void> {
    const { store } = this.deps
    await this.require(companyId, botId)
    const company = await store.companies.findById(companyId)
    if (!company) throw errors.notFound('company', companyId)
    if (company.defaultBotId === botId) {
      throw new AppError('default_bot_protected', "the company's default bot cannot be deleted")
    }
    await store.transaction(async (tx) => {
      await tx.chats.rebindBot(companyId, botId, company.defaultBotId)
      await tx.bots.delete(companyId, botId)
    })
  }
}

/** The keys of `value` whose value is not undefined, so a spread never erases a stored field. */
function defined<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {}
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
