import type { DocumentContextIndex } from '../retrieval/context/document-context.js'
import type { DocumentSpan } from '../retrieval/context/span.js'
import type { ResolvedScope } from '../retrieval/types.js'
import type { AutoDocumentSelector } from '../storage/ports/bots.js'
import type { Repositories } from '../storage/store.js'
import { analyze } from '../text/analysis.js'

/** Most documents automatic selection keeps. */
export const MAX_SELECTED = 20
/**
 * When the question names no subject or period a card holds, documents are chosen by their context
 * (kind, file name, folders) only when one matches clearly: at least this share of the
 * question's words that some context has (document-context.ts), …
 */
const MIN_CONTEXT_SHARE = 0.5
/** … and the documents matching about as well as the best (this share of its weight) … */
const NEAR_BEST = 0.9
/** … are at most this share of the scope (a word most documents' paths carry chooses nothing). */
const MAX_CONTEXT_CHOICE = 0.25

/**
 * Whether automatic document selection runs for a message (DESIGN §4): `always` → on for every
 * message; `choose` → the message's `auto_document_selector` decides; `hidden` → off.
 */
export function selectionRuns(mode: AutoDocumentSelector, requested: boolean | undefined): boolean {
  if (mode === 'always') return true
  if (mode === 'choose') return requested === true
  return false
}

export interface SelectionInput {
  readonly scope: ResolvedScope
  /** The question as retrieval reads it (rephrased with the history). */
  readonly question: string
  readonly language: string
  /** The bot's `default_auto_documents`: paths of documents that say where topics are. */
  readonly guidance: readonly string[]
  /** The documents the question names through their cards. */
  readonly span: DocumentSpan
  readonly context: DocumentContextIndex
}

/**
 * Document paths, folders and names that the guidance documents mention on a line that shares a
 * word with the question ("Apple's reports are in /AAPL/"), lower-cased.
 */
async function guidedLines(repos: Repositories, companyId: string, input: SelectionInput): Promise<string[]> {
  if (input.guidance.length === 0) return []
  const wanted = new Set(analyze(input.question, input.language))
  const documents = await repos.knowledgeBase.findByNames(companyId, input.guidance)
  const lines: string[] = []
  for (const document of documents) {
    if (document.kind !== 'document') continue
    for (const chunk of await repos.chunks.listForDocument(companyId, document.id)) {
      for (const line of chunk.text.split(/\n+/)) {
        if (analyze(line, input.language).some((term) => wanted.has(term))) lines.push(line.toLowerCase())
      }
    }
  }
  return lines
}

/** Whether a guidance line names a document: its path, its file name, or one of its folders. */
function guides(lines: readonly string[], objectName: string): boolean {
  const lower = objectName.toLowerCase()
  const name = lower.slice(lower.lastIndexOf('/') + 1)
  const folders = lower
    .split('/')
    .slice(1, -1)
    .filter((folder) => folder.length >= 2)
  return lines.some(
    (line) =>
      line.includes(name) ||
      folders.some((folder) =>
        new RegExp(`(^|[^\\p{L}\\p{N}])/?${escapeRegExp(folder)}/?($|[^\\p{L}\\p{N}])`, 'u').test(line),
      ),
  )
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Automatic document selection (docs/knowledge-base.md "Automatic document selection"): the
 * documents the question names through their cards (its span: a subject's documents of the period
 * asked for, every one of a trend, each subject of a comparison), as many as it needs. When it
 * names none, the documents whose context (kind, file name, folders) matches the question
 * best, if one matches clearly, and those the bot's guidance documents point to on a line about the
 * question. The guidance documents themselves are never selected. Ids in scope, best first (in
 * period order for a trend); empty when nothing is named clearly enough: the whole scope is then
 * searched.
 */
export async function selectDocuments(
  repos: Repositories,
  companyId: string,
  input: SelectionInput,
): Promise<string[]> {
  const { context, span, scope } = input
  const allowed = scope.documentIds === null ? null : new Set(scope.documentIds)
  const guidance = new Set(input.guidance)
  const usable = (id: string) => {
    const record = context.record(id)
    return record !== undefined && (allowed === null || allowed.has(id)) && !guidance.has(record.objectName)
  }
  const named = span.documents.filter(usable)
  if (named.length > 0) return named.slice(0, MAX_SELECTED)
  const chosen: string[] = []
  {
    const matches = [...context.matches(analyze(input.question, input.language), scope.documentIds)].filter(([id]) =>
      usable(id),
    )
    const best = matches.reduce((top, [, match]) => (match.weight > top.weight ? match : top), {
      weight: 0,
      share: 0,
    })
    const near = matches
      .filter(([, match]) => match.weight >= best.weight * NEAR_BEST)
      .sort((a, b) => b[1].weight - a[1].weight || (a[0] < b[0] ? -1 : 1))
      .map(([id]) => id)
    const size = scope.documentIds?.length ?? context.size
    if (best.share >= MIN_CONTEXT_SHARE && near.length <= Math.max(1, Math.floor(size * MAX_CONTEXT_CHOICE))) {
      chosen.push(...near)
    }
  }
  const lines = await guidedLines(repos, companyId, input)
  if (lines.length > 0) {
    for (const record of context.records()) {
      if (usable(record.documentId) && !chosen.includes(record.documentId) && guides(lines, record.objectName)) {
        chosen.push(record.documentId)
      }
    }
  }
  return chosen.slice(0, MAX_SELECTED)
}
