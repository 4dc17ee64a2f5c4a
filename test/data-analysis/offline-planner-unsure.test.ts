import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOfflinePlanner } from '../../src/data-analysis/offline-planner/index.js'
import type { PlanOutcome, TableSchema } from '../../src/data-analysis/types.js'
import { createTable, firstColumnOf, reasonOf } from './offline-planner-support.js'

/**
 * Issue 24, precision on unseen questions: when the planner is unsure (two columns fit equally,
 * a word it does not know, a name that is no value of the table) it declines and says what it
 * could not map, rather than answer another question. visits.csv: two headers sharing a first
 * word (`start_fee`, `start_hour`), a role and a number of years in it, a compound's qualifier
 * that is part of one header (`heart_risk_factor`) and its head another (`outcome`).
 */

let instance: DuckDBInstance
let visits: TableSchema
let survey: TableSchema
let ask: (question: string) => Promise<PlanOutcome>
let askSurvey: (question: string) => Promise<PlanOutcome>
let askPoll: (question: string) => Promise<PlanOutcome>
let run: (question: string) => Promise<unknown[]>

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  visits = await createTable(
    connection,
    't1',
    'visits.csv',
    [
      ['city', 'text'],
      ['age', 'integer'],
      ['start_fee', 'number'],
      ['start_hour', 'integer'],
      ['JobRole', 'text'],
      ['YearsInCurrentRole', 'integer'],
      ['heart_risk_factor', 'number'],
      ['outcome', 'text'],
      ['review_rate', 'text'],
      ['review_count', 'integer'],
    ],
    [
      ['Paris', 34, 10, 8, 'Nurse', 2, 0.4, 'ill', '90%', 3],
      ['Lyon', 51, 12, 9, 'Nurse', 5, 0.9, 'well', '80%', 7],
      ['Paris', 47, 8, 14, 'Doctor', 1, 0.2, 'ill', '70%', 1],
      ['Lille', 29, 15, 16, 'Clerk', 3, 0.7, 'well', 'n/a', 4],
    ],
  )
  survey = await createTable(
    connection,
    't2',
    'survey.csv',
    [
      ['sleeps_well', 'text'],
      ['eats_well', 'text'],
      ['answer_1', 'text'],
      ['answer_2', 'text'],
      ['respondent_name', 'text'],
      ['rank', 'integer'],
    ],
    [
      ['often', 'rarely', 'a', 'b', 'Ana', 2],
      ['never', 'often', 'a', 'c', 'Ben', 1],
      ['often', 'often', 'b', 'c', 'Cy', 3],
    ],
  )
  const poll = await createTable(
    connection,
    't3',
    'poll.csv',
    [
      ['What is your gender?', 'text'],
      ['How many languages do you speak?', 'integer'],
      ['report_delay_days', 'integer'],
    ],
    [
      ['F', 2, 5],
      ['M', 1, 7],
      ['F', 2, 9],
    ],
  )
  const planner = createOfflinePlanner()
  askPoll = (question) => planner.plan(question, [poll], 'en')
  ask = (question) => planner.plan(question, [visits], 'en')
  askSurvey = (question) => planner.plan(question, [survey], 'en')
  run = async (question) => firstColumnOf(connection, await ask(question))
})

afterAll(() => instance.closeSync())

describe('two columns named equally, neither whole', () => {
  it('declines and names both', async () => {
    const outcome = await ask('List the 2 highest start values.')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('"start_fee" and "start_hour"')
  })

  it('answers when the word is one header head noun and only qualifies the other', async () => {
    expect(await run('What is the most common role?')).toEqual(['Nurse'])
  })

  it('answers when an ordinal numbers the word as only one header is', async () => {
    const outcome = await askSurvey('What is the most common first answer?')
    expect(outcome.kind === 'plan' ? outcome.plan.sql : outcome.reason).toContain('GROUP BY "answer_1"')
  })

  it('answers when the question says a header whole', async () => {
    expect(await run('What is the highest start fee?')).toEqual([15])
  })
})

describe('a compound whose head names a column the plan does not read', () => {
  it('declines rather than read the qualifier column', async () => {
    const outcome = await ask('List the heart outcomes of the 2 oldest persons.')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('"heart outcomes" names "outcome"')
  })
})

describe('a name that is no value of the table', () => {
  it('declines when a capitalised word inside the sentence is not read', async () => {
    const outcome = await ask('What is the average age of the visits made in Nantes?')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('"nantes"')
  })

  it('answers with a seen value', async () => {
    expect(await run('How many visits were made in Paris?')).toEqual([2])
  })

  it('does not take an acronym for a name (a measure as often as a value)', async () => {
    expect(await run('What is the average age of the visits, as the NHS reports it?')).toEqual([40.25])
  })

  it('does not take the first word of a sentence, nor the table name, for a name', async () => {
    expect(await run('Is there any visit in Lyon? Answer with True or False')).toEqual([true])
    expect(await run('How many Visits are there?')).toEqual([4])
  })
})

describe('a plan that reads no column', () => {
  it('declines when words beyond the counted noun are left unread', async () => {
    const outcome = await ask('How many visits were booked in the morning?')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('"morning"')
  })

  it('counts the rows when only the counted noun and the dataset are said', async () => {
    expect(await run('How many visits are there in the dataset?')).toEqual([4])
    expect(await run('Combien de visites y a-t-il dans le fichier ?')).toEqual([4])
  })
})

describe('a numeric column standing in for the text column the words name best', () => {
  it('declines rather than rank the stand-in', async () => {
    const outcome = await ask('What are the 2 lowest review rates?')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('"review rates" names "review_rate", which holds no numbers')
  })

  it('still ranks a numeric column named as well as the text one', async () => {
    expect(await run('What are the 2 lowest review counts?')).toEqual([1, 3])
  })
})

describe('"who" on a table with no column of names', () => {
  it('declines rather than answer from the most varied text column', async () => {
    const outcome = await ask('Who has the highest age?')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('asks who')
  })
})

describe('a value of several columns, none of them named', () => {
  it('declines and names two of them', async () => {
    const outcome = await askSurvey('How many people answered often?')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('is a value of')
  })

  it('reads the value in the column the question names', async () => {
    const outcome = await askSurvey('How many people eat well often?')
    expect(outcome.kind).toBe('plan')
    expect(reasonOf(outcome)).toContain('"eats_well"')
  })
})

describe('a rank ranked by a word that judges', () => {
  it('declines: the best rank is the smallest number', async () => {
    const outcome = await askSurvey('Who is the respondent with the highest rank?')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('on a rank the best is the smallest number')
  })

  it('answers a size asked of a rank', async () => {
    const outcome = await askSurvey('What is the maximum rank?')
    expect(outcome.kind === 'plan' ? outcome.plan.sql : outcome.reason).toContain('max("rank")')
  })
})

describe('a survey question as a header', () => {
  it('is not named by the asking words a question shares with it', async () => {
    const outcome = await askPoll('What is the most frequent answer among respondents?')
    expect(outcome.kind).toBe('declined')
  })

  it('is named by the words that say what it holds', async () => {
    const outcome = await askPoll('What is the most common number of languages spoken?')
    expect(outcome.kind === 'plan' ? outcome.plan.sql : outcome.reason).toContain('"How many languages do you speak?"')
  })
})

describe("the question's opening word", () => {
  it('is its instruction, not part of a header', async () => {
    const outcome = await askPoll('Report the 2 lowest numbers of languages spoken.')
    const said = outcome.kind === 'plan' ? outcome.plan.sql : outcome.reason
    expect(said).toContain('"How many languages do you speak?"')
    expect(said).not.toContain('report_delay_days')
  })
})
