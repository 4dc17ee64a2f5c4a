import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// Every supported question shape, in English and in French, planned by the offline planner and run
// on a real in-memory DuckDB (orders.csv: 12 rows, customers.csv: 7 rows; see the support file).

let w: PlannerWorld
beforeAll(async () => {
  w = await plannerWorld()
})
afterAll(() => w.close())

const TOTAL = 1289.24

describe.each([
  ['en', 'How many orders are from Paris?', 'number', [5]],
  ['fr', 'Combien de commandes viennent de Paris ?', 'number', [5]],
  ['en', 'How many orders are late?', 'number', [4]],
  ['en', 'How many express orders are there?', 'number', [4]],
  ['en', 'What is the total amount for Lyon?', 'number', [313.5]],
  ['fr', 'Quelle est la somme des montants pour Lyon ?', 'number', [313.5]],
  ['en', 'What is the median quantity?', 'number', [2.5]],
  ['fr', 'Quelle est la médiane de la quantité ?', 'number', [2.5]],
  ['en', 'What is the highest amount?', 'number', [300]],
  ['fr', 'Quel est le montant le plus élevé ?', 'number', [300]],
  ['en', 'What is the minimum quantity?', 'number', [1]],
  ['fr', 'Quelle est la quantité minimale ?', 'number', [1]],
  ['en', 'How many different cities are there?', 'number', [4]],
  ['fr', 'Combien de villes différentes y a-t-il ?', 'number', [4]],
  ['en', 'Which city has the highest total amount?', 'category', ['Paris']],
  ['fr', 'Quelle ville a le montant total le plus élevé ?', 'category', ['Paris']],
  ['en', 'List the top 2 cities by total amount', 'list[category]', ['Paris', 'Lille']],
  ['fr', 'Donne les 2 villes avec le montant total le plus élevé', 'list[category]', ['Paris', 'Lille']],
  ['en', 'How many orders have an amount greater than 100?', 'number', [5]],
  // "equal to or greater than", not "greater than" at its end.
  ['en', 'How many orders have an amount equal to or greater than 210?', 'number', [2]],
  ['fr', 'Combien de commandes ont un montant supérieur à 100 ?', 'number', [5]],
  ['en', 'How many orders have a quantity between 2 and 5?', 'number', [5]],
  ['fr', 'Combien de commandes ont une quantité entre 2 et 5 ?', 'number', [5]],
  ['en', "How many orders have a customer containing 'li'?", 'number', [2]],
  ['fr', "Combien de commandes ont un client qui contient 'li' ?", 'number', [2]],
  ['en', 'How many orders between 2024-02-01 and 2024-03-31?', 'number', [4]],
  ['fr', 'Combien de commandes entre le 2024-02-01 et le 2024-03-31 ?', 'number', [4]],
  ['en', 'How many orders after 2024-05-01?', 'number', [4]],
  ['en', 'How many orders in 2025?', 'number', [2]],
  ['fr', 'Combien de commandes en 2025 ?', 'number', [2]],
  ['en', 'What percentage of orders are from Paris?', 'number', [41.67]],
  ['fr', 'Quel pourcentage des commandes viennent de Paris ?', 'number', [41.67]],
  ['en', 'List the 3 highest amounts', 'list[number]', [300, 210, 175]],
  ['fr', 'Liste les 3 montants les plus élevés', 'list[number]', [300, 210, 175]],
  ['en', 'Which customer has the highest amount?', 'category', ['Alice']],
  ['fr', 'Quel client a le montant le plus élevé ?', 'category', ['Alice']],
  ['en', 'What is the most common status?', 'category', ['shipped']],
  ['fr', 'Quel est le statut le plus fréquent ?', 'category', ['shipped']],
  ['en', 'Is there any order from Nantes?', 'boolean', [true]],
  ['fr', 'Y a-t-il une commande de Nantes ?', 'boolean', [true]],
  ['en', 'Are all amounts above 5?', 'boolean', [true]],
  ['en', 'Are all amounts above 10?', 'boolean', [false]],
  ['fr', 'Tous les montants sont-ils supérieurs à 5 ?', 'boolean', [true]],
  ['en', 'Are there more than 10 orders?', 'boolean', [true]],
  ['en', 'Is the average amount greater than 200?', 'boolean', [false]],
  ['fr', 'Le montant moyen est-il supérieur à 100 ?', 'boolean', [true]],
  ['en', 'List the different cities', 'list[category]', ['Paris', 'Lyon', 'Nantes', 'Lille']],
  ['fr', 'Liste les villes différentes', 'list[category]', ['Paris', 'Lyon', 'Nantes', 'Lille']],
  ['en', 'List the customers of the first 3 orders', 'list[category]', ['Alice', 'Bob', 'Chloé']],
])('%s: %s', (language, question, resultType, expected) => {
  it('plans one query whose result is exact', async () => {
    const { plan, values } = await w.run(question, language)
    expect(plan.resultType).toBe(resultType)
    if (typeof expected[0] === 'number') {
      expect(values).toHaveLength(expected.length)
      for (const [i, value] of expected.entries()) expect(Number(values[i])).toBeCloseTo(value as number, 2)
    } else {
      expect(values).toEqual(expected)
    }
    expect(plan.explanation.length).toBeGreaterThan(10)
  })
})

describe('averages', () => {
  it('in English and French', async () => {
    expect(Number((await w.run('What is the average amount?')).values[0])).toBeCloseTo(TOTAL / 12, 6)
    expect(Number((await w.run('Quel est le montant moyen ?', 'fr')).values[0])).toBeCloseTo(TOTAL / 12, 6)
  })
})

describe('plans in plain words and evidence rows', () => {
  it('explains in the language of the question and cites the counted rows', async () => {
    const en = await w.run('How many orders are from Paris?')
    expect(en.plan.explanation).toContain('number of')
    expect(en.plan.explanation).toContain("'Paris'")
    expect(en.plan.evidenceTable).toBe('t1')
    // __row of the Paris orders (data rows are numbered from 2, after the header)
    expect(await w.evidence(en.plan)).toEqual([2, 4, 7, 9, 11])
    const fr = await w.run('Combien de commandes viennent de Paris ?', 'fr')
    expect(fr.plan.explanation).toContain('nombre de')
    expect(fr.plan.explanation).toContain(' où ')
  })

  it('cites the extreme row for a maximum', async () => {
    const { plan } = await w.run('What is the highest amount?')
    expect((await w.evidence(plan))[0]).toBe(5)
  })

  it('quotes every column name as an identifier', async () => {
    const { plan } = await w.run('What is the total amount for Lyon?')
    expect(plan.sql).toContain('sum("amount")')
    expect(plan.sql).toContain(`"city"`)
  })
})

describe('joins between two tables on a shared column', () => {
  it.each([
    ['en', 'What is the total amount for the Wholesale segment?'],
    ['fr', 'Quel est le montant total pour le segment Wholesale ?'],
  ])('%s: sums over the joined rows', async (language, question) => {
    const { plan, values } = await w.run(question, language, [w.orders, w.customers])
    expect(Number(values[0])).toBeCloseTo(455.5, 6)
    expect(plan.sql).toContain('JOIN t2')
    expect(plan.evidenceTable).toBe('t1')
    expect(await w.evidence(plan)).toEqual([3, 6, 8, 12, 13])
  })

  it('groups by a column of the other table', async () => {
    const { values } = await w.run('Which country has the highest total amount?', 'en', [w.orders, w.customers])
    expect(values).toEqual(['France'])
  })
})
