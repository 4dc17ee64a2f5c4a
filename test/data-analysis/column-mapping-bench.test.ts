import { describe, expect, it } from 'vitest'
import { parseColumnsUsed } from '../../bench/data-analysis/columns-used.js'
import {
  columnTypeOf,
  schemaOnlyColumn,
  schemaOnlyTable,
  serviceNames,
} from '../../bench/data-analysis/databench-train.js'
import { type Mapping, summarise, wrongColumn } from '../../bench/data-analysis/mapping-score.js'
import type { Intent } from '../../src/data-analysis/offline-planner/intent.js'
import { intentColumns } from '../../src/data-analysis/offline-planner/intent-columns.js'
import type { ColumnSchema, ColumnType, TableSchema } from '../../src/data-analysis/types.js'

/** The pieces of bench:column-mapping that need no data: the gold parser and the intent's columns. */

const column = (name: string, type: ColumnType = 'text'): ColumnSchema => schemaOnlyColumn(name, type)

describe('parseColumnsUsed', () => {
  it('reads quoted, unquoted and empty lists', () => {
    expect(parseColumnsUsed("['finalWorth', 'selfMade']")).toEqual(['finalWorth', 'selfMade'])
    expect(parseColumnsUsed('[Age, Survived]')).toEqual(['Age', 'Survived'])
    expect(parseColumnsUsed('[Siblings_Spouses Aboard]')).toEqual(['Siblings_Spouses Aboard'])
    expect(parseColumnsUsed('')).toEqual([])
    expect(parseColumnsUsed('[]')).toEqual([])
    expect(parseColumnsUsed(" ['Incident_Location']")).toEqual(['Incident_Location'])
    expect(parseColumnsUsed("'negativereason'")).toEqual(['negativereason'])
    expect(parseColumnsUsed("['a', 'a']")).toEqual(['a'])
  })

  it("keeps headers with commas and apostrophes whole when the table's names are given", () => {
    const known = ['If you are in a relationship, how long have you been with your partner?', 'Age', 'A']
    expect(
      parseColumnsUsed("['If you are in a relationship, how long have you been with your partner?', 'Age']", known),
    ).toEqual(['If you are in a relationship, how long have you been with your partner?', 'Age'])
    expect(parseColumnsUsed("['What's your sexual orientation?']", ["What's your sexual orientation?"])).toEqual([
      "What's your sexual orientation?",
    ])
    expect(parseColumnsUsed("[What's your height? in cm 📏]", ["What's your height? in cm 📏"])).toEqual([
      "What's your height? in cm 📏",
    ])
    expect(parseColumnsUsed('[image_links<gx:list[url]>]', ['image_links<gx:list[url]>'])).toEqual([
      'image_links<gx:list[url]>',
    ])
  })

  it('cleans stray quotes and brackets only into a known name; an unknown gold column is kept', () => {
    expect(parseColumnsUsed('[What\'s your nationality?"]"', ["What's your nationality?"])).toEqual([
      "What's your nationality?",
    ])
    expect(parseColumnsUsed("['Education']", ['EducationField'])).toEqual(['Education'])
  })
})

describe('intentColumns', () => {
  const city = column('city')
  const amount = column('amount', 'number')
  const year = column('year', 'integer')
  const status = column('status')
  const table: TableSchema = {
    sqlName: 't1',
    documentId: 'd',
    filename: 'orders.csv',
    sheet: null,
    rowCount: 10,
    columns: [city, amount, year, status],
  }

  it('collects the columns of filters, shape and check, each once', () => {
    const intent: Intent = {
      table,
      filters: [{ kind: 'compare', column: year, op: '>', value: 2020 }],
      shape: {
        kind: 'group',
        group: city,
        fn: 'sum',
        measure: amount,
        direction: 'desc',
        limit: 1,
        returnMetric: false,
      },
      check: { kind: 'all', condition: [{ kind: 'equals', column: status, value: 'late', negated: false }] },
      resultType: 'boolean',
    }
    expect(intentColumns(intent)).toEqual(['year', 'city', 'amount', 'status'])
  })

  it('reads none for count(*), and the conditions of a share and a "more" check', () => {
    const count: Intent = {
      table,
      filters: [],
      shape: { kind: 'scalar', fn: 'count', column: null },
      check: null,
      resultType: 'number',
    }
    expect(intentColumns(count)).toEqual([])
    const share: Intent = {
      ...count,
      shape: { kind: 'share', condition: [{ kind: 'present', column: amount, present: true }] },
      check: { kind: 'more', op: '>', other: [{ kind: 'contains', column: city, value: 'a' }] },
    }
    expect(intentColumns(share)).toEqual(['amount', 'city'])
  })
})

describe('scoring and schema-only tables', () => {
  it('counts exact sets, micro recall and precision, and wrong columns', () => {
    const m = (gold: string[], used: string[] | null): Mapping => ({
      id: 'x',
      split: 'dev',
      answerType: 'number',
      gold,
      used,
      reason: used ? '' : 'declined',
    })
    const s = summarise([m(['a', 'b'], ['a', 'b']), m(['a', 'b'], ['a', 'c']), m(['a'], null), m([], [])])
    expect(s).toMatchObject({ questions: 4, declined: 1, mapped: 3, exact: 2, goldColumns: 4, goldRecalled: 3 })
    expect(s).toMatchObject({ usedColumns: 4, usedInGold: 3, wrong: 1 })
    expect(wrongColumn(['a'], [])).toBe(true)
    expect(wrongColumn([], ['a'])).toBe(true)
    expect(wrongColumn(['a', 'b'], ['b'])).toBe(false)
  })

  it('types pandas dtypes as the loader would and names columns as the service does', () => {
    expect(
      ['uint8', 'int64', 'float64', 'bool', 'datetime64[us, UTC]', 'category', 'object'].map(columnTypeOf),
    ).toEqual(['integer', 'integer', 'number', 'boolean', 'timestamp', 'text', 'text'])
    expect(() => columnTypeOf('complex128')).toThrow()
    expect([...serviceNames([' a  b ', 'A B'])]).toEqual([
      ['a b', ' a  b '],
      ['A B (2)', 'A B'],
    ])
    const t = schemaOnlyTable('001_X', [{ name: 'age', dtype: 'float64' }])
    expect(t.columns[0]).toMatchObject({ name: 'age', type: 'number', topValues: [], min: null, max: null })
  })
})
