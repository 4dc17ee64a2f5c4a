import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { readJsonl } from '../../support/ir-metrics.js'

/** One financebench question, the fields the benchmark reads (upstream record, unchanged). */
export interface Question {
  readonly financebench_id: string
  readonly company: string
  readonly doc_name: string
  readonly question_type: string
  readonly question: string
  readonly answer: string
  readonly evidence: ReadonlyArray<{ readonly doc_name: string; readonly evidence_page_num: number }>
}

interface DocumentInformation {
  readonly doc_name: string
  readonly company: string
}

/** The financebench subset as the benchmark uses it. */
export interface FinancebenchSet {
  readonly pdfDir: string
  /** Questions whose PDF is present, in file order. */
  readonly questions: readonly Question[]
  /** Company of each PDF present (by `doc_name`), as `financebench_document_information.jsonl` names it. */
  readonly companyOf: ReadonlyMap<string, string>
}

/**
 * Reads the questions and the document list of the financebench subset in `dir`. A question whose
 * PDF is missing is left out; a PDF unknown to the document list is an error, since its company
 * (folder layout, abstention groups) would be unknown.
 */
export function loadSet(dir: string): FinancebenchSet {
  const pdfDir = join(dir, 'pdfs')
  const present = readdirSync(pdfDir)
    .filter((name) => /\.pdf$/i.test(name))
    .map((name) => name.replace(/\.pdf$/i, ''))
  const information = new Map(
    readJsonl<DocumentInformation>(join(dir, 'financebench_document_information.jsonl')).map((doc) => [
      doc.doc_name,
      doc.company,
    ]),
  )
  const companyOf = new Map<string, string>()
  for (const docName of present.sort()) {
    const company = information.get(docName)
    if (company === undefined) throw new Error(`${docName}.pdf is not in financebench_document_information.jsonl`)
    companyOf.set(docName, company)
  }
  const questions = readJsonl<Question>(join(dir, 'questions_subset.jsonl')).filter((q) => companyOf.has(q.doc_name))
  return { pdfDir, questions, companyOf }
}

/** The 1-based pages of the question's own document that hold its evidence. */
export function evidencePages(question: Question): number[] {
  return question.evidence.filter((e) => e.doc_name === question.doc_name).map((e) => e.evidence_page_num + 1)
}
