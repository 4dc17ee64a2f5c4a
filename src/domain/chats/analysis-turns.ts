import type {
  AnalysisDocument,
  AnalysisOutcome,
  AnalysisReport,
  DataAnalysis,
} from '../../data-analysis/data-analysis.js'
import { isTableType, notATable } from '../../data-analysis/table-file.js'
import { AppError, errors } from '../../lib/errors.js'
import type { DocumentRecord } from '../../storage/ports/knowledge-base.js'
import type { Repositories } from '../../storage/store.js'
import { tagNamesOf } from '../tags/tag-names.js'
import { type QuestionContext, type Turn, turnOf } from './turn.js'

/** Most table documents a question is routed over automatically (more: the question goes to retrieval). */
const AUTOMATIC_MAX_DOCUMENTS = 5
/**
 * Larger files are left out of automatic routing: every question of a data-scientist bot would
 * otherwise wait for their first load. Explicit `data_analysis` takes any size up to the cell limit.
 */
const AUTOMATIC_MAX_BYTES = 20 * 1024 * 1024

/** An answered data-analysis question, as the conversation pipeline's turn plus the `analysis` field. */
export interface AnalysisTurn {
  readonly turn: Turn
  readonly report: AnalysisReport | null
}

/**
 * Send-message in data-analysis mode: the documents named in `document_ids` (explicit), or the
 * table documents in the bot's scope when a data-scientist bot gets a question the planner maps
 * confidently (automatic routing).
 */
export class AnalysisTurns {
  constructor(
    private readonly analysis: DataAnalysis,
    /** Told when automatic routing fails (the question is then answered from the knowledge base). */
    private readonly onRoutingError?: (error: unknown) => void,
  ) {}

  /** `data_analysis: true`: every id must be a PROCESSED table document of the company. */
  async explicit(
    repos: Repositories,
    question: QuestionContext,
    documentIds: readonly string[] | undefined,
  ): Promise<AnalysisTurn> {
    const { companyId, message } = question
    const ids = [...new Set(documentIds ?? [])]
    if (ids.length === 0) {
      throw errors.field('body/document_ids', 'must list at least one table document when data_analysis is true')
    }
    const documents: DocumentRecord[] = []
    for (const id of ids) {
      const object = await repos.knowledgeBase.findById(companyId, id)
      if (!object) throw errors.notFound('document', id)
      if (object.kind !== 'document' || !isTableType(object.mimeType)) throw notATable(object)
      if (object.processing.state !== 'PROCESSED') {
        throw new AppError(
          'document_not_ready',
          `document ${id} is ${object.processing.state}, not PROCESSED; data analysis needs a processed document`,
        )
      }
      documents.push(object)
    }
    const tables = await this.analysis.loadTables(await withTags(repos, companyId, documents))
    return toTurn(question, ids, await this.analysis.answer(tables, message, question.languages))
  }

  /** Automatic routing: the answer when the planner maps the question over the scope's tables, else null. */
  async automatic(repos: Repositories, question: QuestionContext): Promise<AnalysisTurn | null> {
    const { companyId, scope } = question
    const candidates =
      scope.documentIds === null
        ? await repos.knowledgeBase.documentsUnder(companyId, '/')
        : await Promise.all(scope.documentIds.map((id) => repos.knowledgeBase.findById(companyId, id)))
    const documents = candidates.filter(
      (d): d is DocumentRecord =>
        d?.kind === 'document' &&
        d.processing.state === 'PROCESSED' &&
        isTableType(d.mimeType) &&
        d.size <= AUTOMATIC_MAX_BYTES,
    )
    if (documents.length === 0 || documents.length > AUTOMATIC_MAX_DOCUMENTS) return null
    try {
      const tables = await this.analysis.loadTables(await withTags(repos, companyId, documents))
      const outcome = await this.analysis.tryAnswer(tables, question.message, question.languages)
      return outcome
        ? toTurn(
            question,
            documents.map((d) => d.id),
            outcome,
          )
        : null
    } catch (error) {
      // A table too large, unreadable, or any failure of the computation is no reason to refuse
      // the question: it is answered from the knowledge base.
      if (!(error instanceof AppError && error.code === 'table_too_large')) this.onRoutingError?.(error)
      return null
    }
  }
}

async function withTags(
  repos: Repositories,
  companyId: string,
  documents: readonly DocumentRecord[],
): Promise<AnalysisDocument[]> {
  const names = await tagNamesOf(
    repos,
    companyId,
    documents.map((d) => d.id),
  )
  return documents.map((document) => ({ document, tags: names.get(document.id) ?? [] }))
}

function toTurn(
  { bot, message }: QuestionContext,
  documentIds: readonly string[],
  outcome: AnalysisOutcome,
): AnalysisTurn {
  return {
    turn: turnOf(
      message,
      { documentIds, paths: [], tags: [...bot.filters.tags] },
      { notFound: outcome.kind !== 'answered', text: outcome.text, sources: outcome.sources },
    ),
    report: outcome.report,
  }
}
