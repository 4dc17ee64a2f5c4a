import { ChatApi } from '../../support/chat-api.js'
import { round } from '../../support/report.js'
import { type AskContext, askQuestion, type Outcome, type SearchOutcome, warmUp } from './ask.js'
import type { Question } from './dataset.js'
import type { KnowledgeBase } from './knowledge-bases.js'
import type { Layout } from './layouts.js'
import type { Run, RunResult } from './summary.js'

/** What the runs of one answerer (one start of the service) need. */
export interface RunPlan {
  /** `offline`, or `llm (<model>)`. */
  readonly answerer: string
  readonly origin: string
  readonly runs: readonly Run[]
  readonly layouts: readonly Layout[]
  readonly questions: readonly Question[]
  readonly knowledgeBases: readonly KnowledgeBase[]
  /** Records the selection bot's id in the manifest (created once per knowledge base). */
  readonly saveBot: (knowledgeBase: KnowledgeBase, botId: string) => void
}

/** The bot of the selection run: the default bot's instructions, automatic selection always on. */
const SELECTION_BOT = {
  label: 'bench: automatic selection',
  description: 'Answers questions from the whole knowledge base, choosing the documents automatically.',
  prompt: {
    name: 'default',
    prompt:
      'Answer the question using only the documents of the knowledge base. Cite the sources you use. ' +
      'If the documents do not contain the answer, say so.',
  },
  auto_document_selector: 'always',
} as const

async function askAll(name: string, questions: readonly Question[], context: AskContext): Promise<Outcome[]> {
  const started = Date.now()
  const outcomes: Outcome[] = []
  for (const question of questions) {
    outcomes.push(await askQuestion(question, context))
    if (outcomes.length % 25 === 0 && outcomes.length < questions.length) {
      console.log(`  ${name}: ${outcomes.length}/${questions.length} questions`)
    }
  }
  const errors = outcomes.filter((o) => o.error).length
  console.log(
    `  ${name}: ${questions.length} questions in ${round((Date.now() - started) / 1000)} s${errors ? `, ${errors} failed` : ''}`,
  )
  return outcomes
}

/**
 * Asks the questions of every run asked for, one question per new chat, in sequence (so that the
 * timings are those of one client): `answers` and `selection` on each layout's knowledge base,
 * `abstention` on the knowledge bases without each question's company.
 */
export async function askRuns(plan: RunPlan): Promise<RunResult[]> {
  const results: RunResult[] = []
  const connect = async (knowledgeBase: KnowledgeBase) => {
    const chat = await ChatApi.connect(plan.origin, knowledgeBase.tenant.credentials)
    await warmUp(chat)
    return chat
  }
  for (const layout of plan.layouts) {
    const knowledgeBase = plan.knowledgeBases.find((kb) => kb.plan.key === layout)
    if (!knowledgeBase) continue
    const chat = await connect(knowledgeBase)
    const searches = new Map<string, SearchOutcome>()
    if (plan.runs.includes('answers')) {
      const outcomes = await askAll(`${plan.answerer}, answers, ${layout}`, plan.questions, {
        chat,
        knowledgeBase,
        searches,
      })
      results.push({ answerer: plan.answerer, run: 'answers', layout, outcomes })
    }
    if (plan.runs.includes('selection')) {
      let botId = knowledgeBase.tenant.selectionBotId
      if (botId === undefined) {
        botId = await chat.createBot(SELECTION_BOT)
        plan.saveBot(knowledgeBase, botId)
      }
      const outcomes = await askAll(`${plan.answerer}, selection, ${layout}`, plan.questions, {
        chat,
        knowledgeBase,
        botId,
        searches,
      })
      results.push({ answerer: plan.answerer, run: 'selection', layout, outcomes })
    }
  }
  if (plan.runs.includes('abstention')) {
    const outcomes: Outcome[] = []
    for (const knowledgeBase of plan.knowledgeBases.filter((kb) => kb.plan.excludedCompanies.length > 0)) {
      const excluded = new Set(knowledgeBase.plan.excludedCompanies)
      const questions = plan.questions.filter((q) => excluded.has(q.company))
      if (questions.length === 0) continue
      const chat = await connect(knowledgeBase)
      outcomes.push(
        ...(await askAll(`${plan.answerer}, abstention, ${knowledgeBase.plan.key}`, questions, {
          chat,
          knowledgeBase,
        })),
      )
    }
    results.push({ answerer: plan.answerer, run: 'abstention', layout: 'opaque', outcomes })
  }
  return results
}
