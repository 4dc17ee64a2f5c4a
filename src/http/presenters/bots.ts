import type { BotRecord } from '../../storage/ports/bots.js'

/** Bot object of spec 2.3: every field, all four filter lists always present. */
export function presentBot(bot: BotRecord) {
  return {
    id: bot.id,
    label: bot.label,
    description: bot.description,
    prompt: { name: bot.prompt.name, prompt: bot.prompt.prompt },
    auto_document_selector: bot.autoDocumentSelector,
    manual_filters: bot.manualFilters,
    data_scientist_mode: bot.dataScientistMode,
    icon: { name: bot.icon.name, type: bot.icon.type },
    locale: bot.locale,
    filters: {
      paths: [...bot.filters.paths],
      tags: [...bot.filters.tags],
      default_documents: [...bot.filters.defaultDocuments],
      default_auto_documents: [...bot.filters.defaultAutoDocuments],
    },
  }
}
