import Type, { type Static } from 'typebox'
import type { BotChanges, BotInput } from '../../domain/bots/bots.js'
import { BOT_LIMITS, ICON_TYPES } from '../../domain/bots/bots.js'
import type { FiltersInput } from '../../domain/bots/filters.js'
import { LOCALES } from '../../text/locales.js'
import { Id } from './common.js'

const MAX_FILTER_ITEMS = 100

type Options = { readonly default?: string }

const autoDocumentSelector = (options: Options = {}) =>
  Type.Enum(['hidden', 'choose', 'always'], {
    description: '`hidden`: off through the API; `choose`: each message decides; `always`: on for every message',
    ...options,
  })
const iconType = (options: Options = {}) => Type.Enum([...ICON_TYPES], { description: 'icon library', ...options })
const locale = (options: Options = {}) =>
  Type.Enum([...LOCALES], { description: 'ISO 639-1 code (lower case), or AUTOMATIC', ...options })
const iconName = (options: Options = {}) =>
  Type.String({ minLength: 1, maxLength: BOT_LIMITS.iconName, description: 'icon id in the library', ...options })

const Label = Type.String({ minLength: 1, maxLength: BOT_LIMITS.label })
const Description = Type.String({ maxLength: BOT_LIMITS.description })
const PromptName = Type.String({ maxLength: BOT_LIMITS.promptName })
const PromptText = Type.String({ maxLength: BOT_LIMITS.prompt })

const PathList = (description: string) =>
  Type.Array(Type.String({ maxLength: 1024 }), { maxItems: MAX_FILTER_ITEMS, description })
const FolderPaths = PathList('folder paths whose documents are in scope (OR with tags)')
const TagIds = Type.Array(Id, { maxItems: MAX_FILTER_ITEMS, description: 'tag ids whose documents are in scope' })
const DefaultDocuments = PathList('file paths given whole to every answer; keep them small')
const DefaultAutoDocuments = PathList('file paths that guide automatic document selection')

const FiltersBody = Type.Object({
  paths: Type.Optional(FolderPaths),
  tags: Type.Optional(TagIds),
  default_documents: Type.Optional(DefaultDocuments),
  default_auto_documents: Type.Optional(DefaultAutoDocuments),
})

/** Body of POST /company/<company_id>/bot. */
export const BotCreateBody = Type.Object({
  label: Label,
  description: Description,
  prompt: Type.Object({ name: PromptName, prompt: PromptText }),
  auto_document_selector: Type.Optional(autoDocumentSelector({ default: 'choose' })),
  manual_filters: Type.Optional(Type.Boolean({ default: false })),
  data_scientist_mode: Type.Optional(Type.Boolean({ default: false })),
  icon: Type.Optional(
    Type.Object({
      name: Type.Optional(iconName({ default: 'smart_toy' })),
      type: Type.Optional(iconType({ default: 'material' })),
    }),
  ),
  locale: Type.Optional(locale({ default: 'AUTOMATIC' })),
  filters: Type.Optional(FiltersBody),
})

/** Body of PATCH /company/<company_id>/bot/<bot_id>: every field optional, only given ones change. */
export const BotPatchBody = Type.Object({
  label: Type.Optional(Label),
  description: Type.Optional(Description),
  prompt: Type.Optional(Type.Object({ name: Type.Optional(PromptName), prompt: Type.Optional(PromptText) })),
  auto_document_selector: Type.Optional(autoDocumentSelector()),
  manual_filters: Type.Optional(Type.Boolean()),
  data_scientist_mode: Type.Optional(Type.Boolean()),
  icon: Type.Optional(Type.Object({ name: Type.Optional(iconName()), type: Type.Optional(iconType()) })),
  locale: Type.Optional(locale()),
  filters: Type.Optional(FiltersBody),
})

export const BotParams = Type.Object({ company_id: Id, bot_id: Id })

/** Bot object of spec 2.3, as every bot operation returns it. */
export const Bot = Type.Object({
  id: Type.String(),
  label: Type.String(),
  description: Type.String(),
  prompt: Type.Object({ name: Type.String(), prompt: Type.String() }),
  auto_document_selector: autoDocumentSelector(),
  manual_filters: Type.Boolean(),
  data_scientist_mode: Type.Boolean(),
  icon: Type.Object({ name: Type.String(), type: Type.String() }),
  locale: Type.String({ description: 'ISO 639-1 code, or AUTOMATIC' }),
  filters: Type.Object({
    paths: Type.Array(Type.String()),
    tags: Type.Array(Type.String()),
    default_documents: Type.Array(Type.String()),
    default_auto_documents: Type.Array(Type.String()),
  }),
})

function toFilters(filters: Static<typeof FiltersBody> | undefined): FiltersInput | undefined {
  if (!filters) return undefined
  return {
    paths: filters.paths,
    tags: filters.tags,
    defaultDocuments: filters.default_documents,
    defaultAutoDocuments: filters.default_auto_documents,
  }
}

/** The domain changes of a patch body. */
export function toBotChanges(body: Static<typeof BotPatchBody>): BotChanges {
  return {
    label: body.label,
    description: body.description,
    prompt: body.prompt,
    autoDocumentSelector: body.auto_document_selector,
    manualFilters: body.manual_filters,
    dataScientistMode: body.data_scientist_mode,
    icon: body.icon,
    locale: body.locale,
    filters: toFilters(body.filters),
  }
}

/** The domain input of a create body: the same mapping, with the required fields. */
export function toBotInput(body: Static<typeof BotCreateBody>): BotInput {
  return { ...toBotChanges(body), label: body.label, description: body.description, prompt: body.prompt }
}
