import type { ResolvedScope } from '../retrieval/types.js'
import type { AutoDocumentSelector } from '../storage/ports/bots.js'
import type { DocumentRecord } from '../storage/ports/knowledge-base.js'
import type { Repositories } from '../storage/store.js'
import { analyze } from '../text/analysis.js'

/** Most documents automatic selection keeps. */
export const MAX_SELECTED = 3
/** Least share of the question's weight a document's title, path and description must match. */
const MIN_MATCH = 0.25
/** Largest scope ranked document by document. */
const MAX_CANDIDATES = 2000

/**
 * Whether automatic document selection runs for a message (DESIGN §4): `always` → on for every
 * message; `choose` → the message's `auto_document_selector` decides; `hidden` → off.
 */
export function selectionRuns(mode: AutoDocumentSelector, requested: boolean | undefined): boolean {
  if (mode === 'always') return true
  if (mode === 'choose') return requested === true
  return false
}

function describe(document: DocumentRecord): string {
  return `${document.objectName.split('/').join(' ').replace(/[._-]/g, ' ')}\n${document.description}`
}

async function candidatesOf(repos: Repositories, companyId: string, scope: ResolvedScope): Promise<DocumentRecord[]> {
  if (scope.documentIds === null) {
    const all = await repos.knowledgeBase.documentsUnder(companyId, '/')
    return all.filter((document) => document.processing.state === 'PROCESSED').slice(0, MAX_CANDIDATES)
  }
  const found: DocumentRecord[] = []
  for (const id of scope.documentIds.slice(0, MAX_CANDIDATES)) {
    const object = await repos.knowledgeBase.findById(companyId, id)
    if (object?.kind === 'document') found.push(object)
  }
  return found
}

/** Document paths and file names that the guidance documents mention next to the question's terms. */
async function guidedNames(
  repos: Repositories,
  companyId: string,
  guidance: readonly string[],
  wanted: ReadonlySet<string>,
  language: string,
): Promise<string> {
  if (guidance.length === 0) return ''
  const documents = await repos.knowledgeBase.findByNames(companyId, guidance)
  const relevant: string[] = []
  for (const document of documents) {
    if (document.kind !== 'document') continue
    for (const chunk of await repos.chunks.listForDocument(companyId, document.id)) {
      for (const line of chunk.text.split(/\n+/)) {
        if (analyze(line, language).some((term) => wanted.has(term))) relevant.push(line.toLowerCase())
      }
    }
  }
  return relevant.join('\n')
}

/**
 * Automatic document selection: ranks the whole documents in scope by how much of the question's
 * term weight (idf over the candidates) their path, file name and description carry, with a bonus
 * for documents that the bot's `default_auto_documents` mention on a line sharing the question's
 * terms, and keeps the best (at most MAX_SELECTED, each matching at least a quarter of the
 * question). Returns their ids, best first; empty when nothing matches well enough.
 */
export async function selectDocuments(
  repos: Repositories,
  companyId: string,
  scope: ResolvedScope,
  question: string,
  language: string,
  guidance: readonly string[],
): Promise<string[]> {
  const questionTerms = [...new Set(analyze(question, language))]
  if (questionTerms.length === 0) return []
  const wanted = new Set(questionTerms)
  const candidates = (await candidatesOf(repos, companyId, scope)).filter((d) => !guidance.includes(d.objectName))
  if (candidates.length === 0) return []
  const termsOf = new Map(candidates.map((document) => [document.id, new Set(analyze(describe(document), language))]))
  const weight = new Map<string, number>()
  for (const term of questionTerms) {
    const df = candidates.filter((document) => termsOf.get(document.id)?.has(term)).length
    // A term no candidate carries tells documents apart no better than a stop word.
    if (df > 0) weight.set(term, Math.log(1 + (candidates.length + 1) / (df + 0.5)))
  }
  if (weight.size === 0) return []
  const total = [...weight.values()].reduce((sum, w) => sum + w, 0)
  const guided = await guidedNames(repos, companyId, guidance, wanted, language)
  const scored = candidates.map((document) => {
    let matched = 0
    for (const term of termsOf.get(document.id) ?? []) if (wanted.has(term)) matched += weight.get(term) ?? 0
    const name = document.objectName.slice(document.objectName.lastIndexOf('/') + 1).toLowerCase()
    const bonus = guided !== '' && guided.includes(name) ? 0.5 : 0
    return { id: document.id, path: document.objectName, score: matched / total + bonus }
  })
  return scored
    .filter((entry) => entry.score >= MIN_MATCH)
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1))
    .slice(0, MAX_SELECTED)
    .map((entry) => entry.id)
}
