import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOfflinePlanner } from '../../src/data-analysis/offline-planner/index.js'
import type { TableSchema } from '../../src/data-analysis/types.js'
import { createTable, firstColumnOf } from './offline-planner-support.js'

/**
 * Issue 24, precision: what the planner must map before it answers, and what it must decline.
 * products.csv: a true/false flag, headers cut short (`sp_price`, `lang`), a seller's identifier and name.
 */

let instance: DuckDBInstance
let products: TableSchema
let run: (question: string) => Promise<unknown[]>
let ask: (question: string) => ReturnType<ReturnType<typeof createOfflinePlanner>['plan']>

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  products = await createTable(
    connection,
    't1',
    'products.csv',
    [
      ['product', 'text'],
      ['price', 'number'],
      ['is_featured', 'boolean'],
      ['sp_price', 'number'],
      ['lang', 'text'],
      ['seller_id', 'text'],
      ['seller_name', 'text'],
      ['seller_is_verified', 'boolean'],
    ],
    [
      ['lamp', 12, true, 10, 'en', 's1', 'Ana', true],
      ['chair', 5, false, 4, 'fr', 's2', 'Ben', false],
      ['desk', 40, true, 30, 'fr', 's1', 'Ana', true],
      ['shelf', 3, false, 2, 'fr', 's3', 'Cy', true],
      ['stool', 20, true, 15, 'de', 's2', 'Ben', false],
    ],
  )
  const planner = createOfflinePlanner()
  ask = (question) => planner.plan(question, [products], 'en')
  run = async (question) => firstColumnOf(connection, await ask(question))
})

afterAll(() => instance.closeSync())

describe('a true/false column said as an adjective is a condition', () => {
  it('keeps only the flagged rows', async () => {
    expect(await run('List the 2 lowest prices of featured items.')).toEqual([12, 20])
  })

  it('declines rather than answer with the flag itself when the asked-for column is not named', async () => {
    const outcome = await ask('What colour is the most common among featured items?')
    expect(outcome.kind).toBe('declined')
  })
})

describe('a header word cut short of the question word names its column', () => {
  it('maps a two-letter cut beside a word said in full', async () => {
    expect(await run('What are the 2 highest special prices?')).toEqual([30, 15])
  })

  it('maps a cut header alone', async () => {
    expect(await run('Which language is the most common?')).toEqual(['fr'])
  })

  it('does not take a two-letter cut alone for a word', async () => {
    const outcome = await ask('How many spectacular products are there?')
    expect(outcome.kind === 'plan' ? outcome.plan.sql : outcome.reason).not.toContain('sp_price')
  })
})

describe('"the X of the most Y rows" ranks single rows, not a category total', () => {
  it('answers each ranked row’s own value', async () => {
    expect(await run('What are the languages of the 2 lowest priced items?')).toEqual(['fr', 'fr'])
  })
})

describe('a superlative before a word no column names', () => {
  it('declines, saying the word it could not map, rather than count rows', async () => {
    const outcome = await ask('Which language has the most reviews?')
    expect(outcome.kind === 'declined' ? outcome.reason : 'planned').toBe(
      'the question ranks by "reviews", which could not be mapped to a column',
    )
  })

  it('still counts rows when nothing follows the superlative but a preposition', async () => {
    expect(await run('Which language appears the most in the dataset?')).toEqual(['fr'])
  })
})

describe('a word that names an identifier and a name column equally', () => {
  it('declines to answer with the values of either', async () => {
    const outcome = await ask('Who are the sellers of the 2 most expensive items?')
    expect(outcome.kind === 'declined' ? outcome.reason : 'planned').toBe(
      '"sellers" names the identifier "seller_id" and "seller_name" equally, and the question asks for values',
    )
  })

  it('still counts them', async () => {
    expect(await run('How many unique sellers are there?')).toEqual([3])
  })
})

describe('the verb inside a short header is no word of the question', () => {
  it('does not take "is" for `seller_is_verified`', async () => {
    const outcome = await ask('What is the highest price?')
    expect(outcome.kind === 'plan' ? outcome.plan.sql : outcome.reason).not.toContain('seller_is_verified')
  })
})

describe('"where" before a verb asks for a name even after a clause', () => {
  it('declines a number for "…, where should I buy?"', async () => {
    const outcome = await ask('If I want the cheapest price, where should I buy?')
    expect(outcome.kind === 'declined' ? outcome.reason : 'planned').toBe(
      'the question asks which one, but the planner could only compute a number for it',
    )
  })

  it('still answers a number when "where" opens a relative clause', async () => {
    expect(await run('How many items are there where the price is above 10?')).toEqual([3])
  })
})

describe('a superlative whose next word names nothing, before a column further on', () => {
  it('declines rather than rank by the later column', async () => {
    const outcome = await ask('What are the 2 highest shipping prices?')
    expect(outcome.kind === 'declined' ? outcome.reason : 'planned').toBe(
      'the question ranks by "shipping", which could not be mapped to a column',
    )
  })

  it('ranks by the column named right after it', async () => {
    expect(await run('What are the 2 highest prices?')).toEqual([40, 20])
  })
})

describe('a negation no condition reads', () => {
  it('declines, naming the word', async () => {
    const outcome = await ask('List the languages of items that are not on sale.')
    expect(outcome.kind === 'declined' ? outcome.reason : 'planned').toBe(
      'the question says "not", but no condition could be tied to it',
    )
  })

  it('still answers when a condition reads it', async () => {
    expect(await run('How many items are not featured?')).toEqual([2])
  })
})

describe('a negation that says how to compute, not which rows', () => {
  it('answers when the negation is an instruction, a verb in -ing or about empty cells', async () => {
    expect(await run('What is the average price? Do not remove any rows.')).toEqual([16])
    expect(await run('What is the average price, without applying any rounding?')).toEqual([16])
    expect(await run('What is the average price? There are no missing values.')).toEqual([16])
  })

  it('answers when the negation sets a method aside ("not the other way around", "not the sample formula")', async () => {
    expect(
      await run('What is the average price, computed with the arithmetic mean, not the other way around?'),
    ).toEqual([16])
    expect(await run('What is the average price? Use the usual formula, not the population formula.')).toEqual([16])
  })

  it('still declines a negated condition it cannot read', async () => {
    const outcome = await ask('What is the highest price of products that are not in French?')
    expect(outcome.kind === 'declined' ? outcome.reason : 'planned').toBe(
      'the question says "not", but no condition could be tied to it',
    )
  })
})

describe('a three-letter header alone is no abbreviation', () => {
  it('does not read "consider" as a 0/1 column `CON`', async () => {
    const connection = await instance.connect()
    const trees = await createTable(
      connection,
      't2',
      'trees.csv',
      [
        ['GIRTH_CM', 'number'],
        ['CON', 'number'],
        ['HEIGHT_M', 'number'],
      ],
      [
        [10, 1, 3],
        [30, 0, 4],
        [50, 0, 5],
      ],
    )
    const outcome = await createOfflinePlanner().plan(
      'What is the mean of the GIRTH_CM column? Do not consider missing values, outliers, or data errors, ' +
        "as there are no missing values in this column. @mean_girth[mean_value] where 'mean_value' is rounded to two decimals.",
      [trees],
      'en',
    )
    expect(outcome.kind === 'plan' ? outcome.plan.sql : outcome.reason).toBe(
      'SELECT round((SELECT avg("GIRTH_CM") FROM t2), 2) AS "mean_girth"',
    )
  })
})
