import type { Timestamp } from '../../lib/clock.js'
import type { BotRecord } from '../../storage/ports/bots.js'

/** The bot every company starts with: the whole knowledge base, language of the question. */
export function defaultBot(id: string, companyId: string, now: Timestamp): BotRecord {
  return {
    id,
    companyId,
    label: 'Assistant',
    description: 'Answers questions from the whole knowledge base, citing its sources.',
    prompt: {
      name: 'default',
      prompt:
        'Answer the question using only the documents of the knowledge base. Cite the sources you use. ' +
        'If the documents do not contain the answer, say so.',
    },
    autoDocumentSelector: 'choose',
    manualFilters: true,
    dataScientistMode: false,
    icon: { name: 'smart_toy', type: 'material' },
    locale: 'AUTOMATIC',
    filters: { paths: [], tags: [], defaultDocuments: [], defaultAutoDocuments: [] },
    createdAt: now,
    updatedAt: now,
  }
}
