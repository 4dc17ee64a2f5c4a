import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QueryPlan, TableSchema } from '../../src/data-analysis/types.js'
import { createTable, type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// Statistics planned by the offline planner and run on a real DuckDB, checked against the textbook
// formulas computed here in plain TypeScript (pandas' conventions unless the question says otherwise).

const AMOUNT = [120.5, 80, 45.25, 300, 15, 99.99, 210, 60, 175, 33, 8.5, 142]
const QTY = [3, 1, 2, 10, 1, 4, 7, 2, 5, 1, 1, 6]

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const central = (xs: readonly number[], k: number) => mean(xs.map((x) => (x - mean(xs)) ** k))
const sampleVariance = (xs: readonly number[]) => (central(xs, 2) * xs.length) / (xs.length - 1)
/** numpy's default (linear) percentile. */
function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b)
  const at = (p / 100) * (sorted.length - 1)
  const low = Math.floor(at)
  return (
    (sorted[low] as number) +
    ((sorted[Math.min(low + 1, sorted.length - 1)] as number) - (sorted[low] as number)) * (at - low)
  )
}
function pearson(xs: readonly number[], ys: readonly number[]): number {
  const mx = mean(xs)
  const my = mean(ys)
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (const [i, x] of xs.entries()) {
    const y = ys[i] as number
    sxy += (x - mx) * (y - my)
    sxx += (x - mx) ** 2
    syy += (y - my) ** 2
  }
  return sxy / Math.sqrt(sxx * syy)
}
/** Ranks from 1, tied values sharing their mean rank. */
function ranks(xs: readonly number[]): number[] {
  return xs.map((x) => {
    const below = xs.filter((v) => v < x).length
    const equal = xs.filter((v) => v === x).length
    return below + (equal + 1) / 2
  })
}
/** pandas' skew() (adjusted Fisher–Pearson) and kurt() (excess, adjusted). */
function pandasSkew(xs: readonly number[]): number {
  const n = xs.length
  return (Math.sqrt(n * (n - 1)) / (n - 2)) * (central(xs, 3) / central(xs, 2) ** 1.5)
}
function pandasKurt(xs: readonly number[]): number {
  const n = xs.length
  const g2 = central(xs, 4) / central(xs, 2) ** 2 - 3
  return ((n - 1) / ((n - 2) * (n - 3))) * ((n + 1) * g2 + 6)
}

let w: PlannerWorld
let sparse: TableSchema
beforeAll(async () => {
  w = await plannerWorld()
  sparse = await createTable(
    w.connection,
    't9',
    'survey.csv',
    [
      ['respondent', 'text'],
      ['age', 'integer'],
      ['income', 'number'],
      ['region', 'text'],
    ],
    [
      ['r1', 34, 52000, 'North'],
      ['r2', null, 61000, 'South'],
      ['r3', 29, null, 'North'],
      ['r4', 41, 58000, null],
      ['r5', null, null, 'North'],
    ],
  )
})
afterAll(() => w.close())

/** Plans, runs, and returns the result row as an object (one column per named value). */
async function values(
  question: string,
  tables?: readonly TableSchema[],
): Promise<{ plan: QueryPlan; row: Record<string, number | string | null> }> {
  const outcome = await w.ask(question, 'en', tables)
  if (outcome.kind !== 'plan') throw new Error(`declined: ${outcome.reason}`)
  const reader = await w.connection.runAndReadAll(outcome.plan.sql)
  const names = reader.columnNames()
  const first = reader.getRowsJS()[0] ?? []
  const row = Object.fromEntries(
    names.map((name, i) => [
      name,
      typeof first[i] === 'bigint' ? Number(first[i]) : (first[i] as number | string | null),
    ]),
  )
  return { plan: outcome.plan, row }
}

async function declineReason(question: string, tables?: readonly TableSchema[]): Promise<string> {
  const outcome = await w.ask(question, 'en', tables)
  if (outcome.kind !== 'declined') throw new Error(`planned: ${outcome.plan.sql}`)
  return outcome.reason
}

describe('statistics: several named values in one answer', () => {
  it('gives the mean, median and sample standard deviation of one column, each under its name', async () => {
    const { plan, row } = await values('What are the mean, median and standard deviation of the amount?')
    expect(plan.resultType).toBe('values')
    expect(Object.keys(row)).toEqual(['mean', 'median', 'standard_deviation'])
    expect(row.mean).toBeCloseTo(mean(AMOUNT), 9)
    expect(row.median).toBeCloseTo(percentile(AMOUNT, 50), 9)
    expect(row.standard_deviation).toBeCloseTo(Math.sqrt(sampleVariance(AMOUNT)), 9)
    expect(plan.explanation).toContain('standard deviation (sample) of "amount"')
  })

  it('uses the population formulas when asked, and one value is a plain number', async () => {
    const { row } = await values('What are the population standard deviation and the population variance of qty?')
    expect(row.standard_deviation).toBeCloseTo(Math.sqrt(central(QTY, 2)), 9)
    expect(row.variance).toBeCloseTo(central(QTY, 2), 9)
    const single = await values('What is the variance of qty?')
    expect(single.plan.resultType).toBe('number')
    expect(Object.values(single.row)[0]).toBeCloseTo(sampleVariance(QTY), 9)
  })

  it('computes Pearson and Spearman correlations (tied values sharing their mean rank)', async () => {
    const pearsonRow = (await values('What is the correlation between amount and qty?')).row
    expect(pearsonRow.correlation).toBeCloseTo(pearson(AMOUNT, QTY), 9)
    const french = await w.ask('Quelle est la corrélation entre le montant et la quantité ?', 'fr')
    expect(french.kind === 'plan' && french.plan.explanation).toContain('corrélation (Pearson) de "amount" et "qty"')
    const spearmanRow = (await values('What is the Spearman correlation between amount and qty?')).row
    expect(spearmanRow.correlation).toBeCloseTo(pearson(ranks(AMOUNT), ranks(QTY)), 9)
  })

  it('computes percentiles, quartiles and the interquartile range as numpy does (linear)', async () => {
    expect((await values('What is the 90th percentile of amount?')).row.percentile_90).toBeCloseTo(
      percentile(AMOUNT, 90),
      9,
    )
    expect((await values('What is the third quartile of qty?')).row.percentile_75).toBeCloseTo(percentile(QTY, 75), 9)
    expect((await values('What is the interquartile range of qty?')).row.interquartile_range).toBeCloseTo(
      percentile(QTY, 75) - percentile(QTY, 25),
      9,
    )
  })

  it("computes pandas' skewness and kurtosis, or SciPy's biased ones when SciPy is named", async () => {
    const { row } = await values('What are the skewness and the kurtosis of amount?')
    expect(row.skewness).toBeCloseTo(pandasSkew(AMOUNT), 9)
    expect(row.kurtosis).toBeCloseTo(pandasKurt(AMOUNT), 9)
    const scipy = (await values('Using scipy, what are the skewness and kurtosis of amount?')).row
    expect(scipy.skewness).toBeCloseTo(central(AMOUNT, 3) / central(AMOUNT, 2) ** 1.5, 9)
    expect(scipy.kurtosis).toBeCloseTo(central(AMOUNT, 4) / central(AMOUNT, 2) ** 2 - 3, 9)
  })

  it('counts outliers by the IQR rule or by a z-score threshold, the rule never read as a condition', async () => {
    const q1 = percentile(AMOUNT, 25)
    const q3 = percentile(AMOUNT, 75)
    const byIqr = AMOUNT.filter((x) => x < q1 - 1.5 * (q3 - q1) || x > q3 + 1.5 * (q3 - q1)).length
    expect((await values('How many outliers are there in amount with the IQR method (1.5 IQR)?')).row.outliers).toBe(
      byIqr,
    )
    const sd = Math.sqrt(central(AMOUNT, 2))
    const byZ = AMOUNT.filter((x) => Math.abs(x - mean(AMOUNT)) > 1.5 * sd).length
    const z = await values('How many outliers in amount have a z-score greater than 1.5 or less than -1.5?')
    expect(z.row.outliers).toBe(byZ)
    expect(z.plan.sql).not.toContain('> 1.5 AND')
  })

  it('fits a regression of one column on another: slope, intercept and r²', async () => {
    const { row } = await values('Perform a linear regression of amount on qty.')
    const slope = (pearson(AMOUNT, QTY) * Math.sqrt(central(AMOUNT, 2))) / Math.sqrt(central(QTY, 2))
    expect(row.slope).toBeCloseTo(slope, 9)
    expect(row.intercept).toBeCloseTo(mean(AMOUNT) - slope * mean(QTY), 9)
    expect(row.r_squared).toBeCloseTo(pearson(AMOUNT, QTY) ** 2, 9)
  })

  it('counts missing values and finds the mode of a text column', async () => {
    expect((await values('How many missing values are there in income?', [sparse])).row.missing_values).toBe(2)
    const mode = await values('What is the mode of region?', [sparse])
    expect(mode.plan.resultType).toBe('category')
    expect(mode.row.mode).toBe('North')
  })

  it('counts missing values per column, or over the whole table, citing the rows that lack one', async () => {
    const perColumn = await values('How many missing values are there in each column?', [sparse])
    expect(perColumn.plan.resultType).toBe('values')
    expect(perColumn.row).toEqual({ respondent: 0, age: 2, income: 2, region: 1 })
    expect(await w.evidence(perColumn.plan)).toEqual([3, 4, 5, 6])
    const whole = await values('How many missing values are there in the dataset?', [sparse])
    expect(whole.plan.resultType).toBe('number')
    expect(Object.values(whole.row)).toEqual([5])
  })

  it('gives the value counts of a column, most frequent first', async () => {
    const outcome = await w.ask('What are the value counts of status?')
    if (outcome.kind !== 'plan') throw new Error(outcome.reason)
    expect(outcome.plan.resultType).toBe('table')
    const rows = (await w.connection.runAndReadAll(outcome.plan.sql)).getRowsJS()
    expect(rows.map(([value, count]) => [value, Number(count)])).toEqual([
      ['shipped', 7],
      ['late', 4],
      ['cancelled', 1],
    ])
  })

  it('computes plain statistics per group, one row per value of the group column', async () => {
    const outcome = await w.ask('What are the mean and standard deviation of amount for each city?')
    if (outcome.kind !== 'plan') throw new Error(outcome.reason)
    expect(outcome.plan.resultType).toBe('table')
    expect(outcome.plan.explanation).toContain('for each value of "city"')
    const rows = (await w.connection.runAndReadAll(outcome.plan.sql)).getRowsJS()
    const cities = ['Lille', 'Lyon', 'Nantes', 'Paris']
    const cityOf = [
      'Paris',
      'Lyon',
      'Paris',
      'Nantes',
      'Lyon',
      'Paris',
      'Lyon',
      'Paris',
      'Lille',
      'Paris',
      'Lyon',
      'Lille',
    ]
    expect(rows.map((row) => row[0])).toEqual(cities)
    for (const [i, city] of cities.entries()) {
      const amounts = AMOUNT.filter((_, j) => cityOf[j] === city)
      expect(rows[i]?.[1]).toBeCloseTo(mean(amounts), 9)
      if (amounts.length > 1) expect(rows[i]?.[2]).toBeCloseTo(Math.sqrt(sampleVariance(amounts)), 9)
      else expect(rows[i]?.[2]).toBeNull()
    }
  })

  it('gives the growth in percent from the earliest to the latest row, along the date column', async () => {
    const { plan, row } = await values('What is the growth rate of amount?')
    expect(Object.values(row)[0]).toBeCloseTo((100 * (142 - 120.5)) / 120.5, 9)
    expect(plan.explanation).toContain('in the order of "order_date"')
    expect(await declineReason('What is the annual growth rate of amount?')).toMatch(/several readings/)
    expect(await declineReason('What is the percentage change in income?', [sparse])).toMatch(/no time column/)
  })

  it('reads a number of the question that is part of a named column name as that column, not a condition', async () => {
    const gdp = await createTable(
      w.connection,
      't8',
      'gdp.csv',
      [
        ['country', 'text'],
        ['gdpPercap_2002', 'number'],
        ['gdpPercap_2007', 'number'],
      ],
      [
        ['A', 100, 120],
        ['B', 200, 260],
        ['C', 300, 330],
      ],
    )
    const { row } = await values('What are the mean and the median of "gdpPercap_2007" in 2007?', [gdp])
    expect(row).toEqual({ mean: (120 + 260 + 330) / 3, median: 260 })
  })

  it('applies the conditions of the question to every value', async () => {
    const paris = AMOUNT.filter((_, i) => [0, 2, 5, 7, 9].includes(i))
    const { plan, row } = await values('What are the mean and the standard deviation of amount for orders from Paris?')
    expect(plan.mapping).toEqual([
      { words: 'amount', column: 'amount', value: null },
      { words: 'paris', column: 'city', value: 'Paris' },
    ])
    expect(row.mean).toBeCloseTo(mean(paris), 9)
    expect(row.standard_deviation).toBeCloseTo(Math.sqrt(sampleVariance(paris)), 9)
  })
})

describe('statistics under an answer format', () => {
  it('names each value after its slot, keeps only what the slots ask, and rounds as asked', async () => {
    const { plan, row } = await values(
      'Calculate the mean and standard deviation of the amount, ignoring outliers in the discussion.\n' +
        '@amount_std[std_value] @amount_mean[mean_value] where "mean_value" and "std_value" are positive numbers rounded to two decimal places.',
    )
    expect(plan.resultType).toBe('values')
    expect(row).toEqual({
      amount_std: Number(Math.sqrt(sampleVariance(AMOUNT)).toFixed(2)),
      amount_mean: Number(mean(AMOUNT).toFixed(2)),
    })
  })

  it('reads a "distribution analysis" whose slots are all statistics as those statistics, and declines one without', async () => {
    const { row } = await values(
      'Perform a distribution analysis of amount: its mean and median. @mean_amount[m] @median_amount[n]',
    )
    expect(row).toEqual({ mean_amount: mean(AMOUNT), median_amount: percentile(AMOUNT, 50) })
    expect(await declineReason('Perform a distribution analysis of amount.')).toMatch(/"distribution"/)
  })

  it('declines a question read as a list or a name when its answer format wants statistics', async () => {
    expect(await declineReason('What are the 3 most common cities? @mean_city[m]')).toMatch(
      /answer format asks for statistics, and the question was read as a list/,
    )
  })

  it('tells two means apart by the column words of their slots', async () => {
    const { row } = await values('What are the average amount and the average qty? @mean_qty[a] @mean_amount[b]')
    expect(row.mean_qty).toBeCloseTo(mean(QTY), 9)
    expect(row.mean_amount).toBeCloseTo(mean(AMOUNT), 9)
  })

  it("reads a quoted tool's name (\"Python's 'statistics' module\") as no value to look for", async () => {
    const { row } = await values(
      "Calculate the mean and the median of amount with the functions of Python's 'statistics' module. @mean_amount[a] @median_amount[b]",
    )
    expect(row.mean_amount).toBeCloseTo(mean(AMOUNT), 9)
  })

  it('reads a label the question defines and no slot asks for ("defined as \'heavy\' if …") as no condition', async () => {
    const { row } = await values(
      "Calculate the mean and the median of amount. Results are defined as 'high' if they fall outside the range of -0.5 to 0.5.\n@mean_amount[a] @median_amount[b]",
    )
    expect(row).toEqual({ mean_amount: mean(AMOUNT), median_amount: percentile(AMOUNT, 50) })
    // A label the answer format asks for is a verdict's rule, not dropped: here no rule the planner reads.
    expect(
      await declineReason(
        "Calculate the mean of amount. Results are defined as 'high' if they fall outside the range of -0.5 to 0.5.\n@mean_amount[a] @level[l] where l is 'high' or 'low'",
      ),
    ).toBeTruthy()
  })
})

describe('statistics after removing outliers', () => {
  it('computes the statistics over the rows whose column is no outlier, by a z-score or the IQR rule', async () => {
    // z-scores with the population standard deviation (SciPy's zscore): only 300 is beyond 2.
    const sd = Math.sqrt(central(AMOUNT, 2))
    const kept = AMOUNT.filter((x) => Math.abs(x - mean(AMOUNT)) <= 2 * sd)
    expect(kept).toHaveLength(11)
    const z = await values(
      'Remove the outliers of amount (z-score above 2), then give the mean and the standard deviation.',
    )
    expect(z.row.mean).toBeCloseTo(mean(kept), 9)
    expect(z.row.standard_deviation).toBeCloseTo(Math.sqrt(sampleVariance(kept)), 9)
    expect(Object.keys(z.row)).toEqual(['mean', 'standard_deviation'])
    expect(z.plan.explanation).toContain('without the outliers of "amount" (|z| > 2, population standard deviation)')
    const READINGS = [1, 2, 2, 3, 3, 3, 4, 4, 5, 40]
    const readings = await createTable(
      w.connection,
      't11',
      'readings.csv',
      [['reading', 'number']],
      READINGS.map((x) => [x]),
    )
    const [q1, q3] = [percentile(READINGS, 25), percentile(READINGS, 75)]
    const inside = READINGS.filter((x) => x >= q1 - 1.5 * (q3 - q1) && x <= q3 + 1.5 * (q3 - q1))
    expect(inside).toHaveLength(9)
    const iqr = await values(
      'After removing the outliers of reading with the IQR rule, what are the mean and the median of reading?',
      [readings],
    )
    expect(iqr.row.mean).toBeCloseTo(mean(inside), 9)
    expect(iqr.row.median).toBeCloseTo(percentile(inside, 50), 9)
    const notRemoved = await values(
      'Count the outliers of reading with the IQR rule and give the mean of reading. Do not remove any data.',
      [readings],
    )
    expect(notRemoved.row).toEqual({ outliers: 1, mean: mean(READINGS) })
  })
})

describe('several correlations, their pairs named by the answer format', () => {
  it('gives one correlation per slot, the slot naming its two columns as one word or two', async () => {
    const [X, Y, Z] = [
      [1, 2, 3, 4, 5, 6],
      [2, 1, 4, 3, 6, 5],
      [9, 7, 8, 3, 2, 1],
    ] as const
    const coords = await createTable(
      w.connection,
      't12',
      'coords.csv',
      [
        ['X', 'number'],
        ['Y', 'number'],
        ['Z', 'number'],
      ],
      X.map((x, i) => [x, Y[i] as number, Z[i] as number]),
    )
    const joined = await values(
      'Calculate the Pearson correlation coefficients between X and Y, and between X and Z. @correlation_XY[r1] @correlation_XZ[r2]',
      [coords],
    )
    expect(joined.row.correlation_XY).toBeCloseTo(pearson(X, Y), 9)
    expect(joined.row.correlation_XZ).toBeCloseTo(pearson(X, Z), 9)
    const apart = await values('Give the correlation between X and Y, and between X and Z. @corr_x_z[a] @corr_x_y[b]', [
      coords,
    ])
    expect(Object.keys(apart.row)).toEqual(['corr_x_z', 'corr_x_y'])
    expect(apart.row.corr_x_z).toBeCloseTo(pearson(X, Z), 9)
    expect(apart.row.corr_x_y).toBeCloseTo(pearson(X, Y), 9)
  })
})

describe('statistics of a rate', () => {
  it('reads "per capita" inside a column\'s name or before its unit as a rate, not a grouping', async () => {
    const rates = await createTable(
      w.connection,
      't10',
      'countries.csv',
      [
        ['country', 'text'],
        ['gdp per capita', 'number'],
      ],
      [
        ['A', 1000],
        ['B', 3000],
        ['C', 8000],
      ],
    )
    const { row } = await values('What are the mean and standard deviation of the GDP per capita?', [rates])
    expect(row.mean).toBeCloseTo(4000, 9)
    expect(row.standard_deviation).toBeCloseTo(Math.sqrt((3000 ** 2 + 1000 ** 2 + 4000 ** 2) / 2), 9)
  })
})

describe('statistics the planner declines rather than guess', () => {
  it.each([
    ['What is the percentile of amount?', /percentile or quartile without saying which/],
    ['How many outliers are there in amount?', /outliers without the rule/],
    ['What is the regression slope between amount and qty?', /which column the regression explains/],
    ['What is the Kendall correlation between amount and qty?', /Kendall/],
    ['What is the mode of qty for each city?', /not computed per group/],
    ['How many outliers (IQR) are there in amount for each city?', /not computed per group/],
    ['What is the standard deviation of amount for each?', /without naming the column to group by/],
    ['Remove the outliers of amount (z-score above 3). How many rows are left?', /rows left after removing/],
    ['Remove the outliers of amount (z-score above 3), then give the mean amount for each city.', /per group/],
    ['What is the correlation of amount?', /two numeric columns/],
    ['What is the mean amount? @mean_amount[m] @p_value[p]', /p-value|p value|"p_value"/],
  ])('%s', async (question, reason) => {
    expect(await declineReason(question)).toMatch(reason)
  })
})
