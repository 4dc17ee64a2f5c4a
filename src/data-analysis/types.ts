/**
 * The contract of data-analysis mode (issue 5): tables loaded from stored CSV/TSV/XLSX/ODS
 * documents, a planner that turns a question into one read-only SQL query over them (the offline
 * question parser or an LLM), and the typed result the answer and the `analysis` field report.
 */

/** Column types after loading (numbers with thousands separators, decimal commas, %, currency already converted). */
export type ColumnType = 'integer' | 'number' | 'text' | 'date' | 'timestamp' | 'boolean'

export interface ColumnSchema {
  /** The header as the user sees it; in SQL always double-quoted (see quoteIdentifier). */
  readonly name: string
  readonly type: ColumnType
  /** What the cells looked like before conversion: `12 %` → 12 with unit `percent`. */
  readonly unit: 'percent' | 'currency' | null
  readonly nullCount: number
  readonly distinctCount: number
  /** The most frequent values (text columns; up to 50), for mapping question words to values. */
  readonly topValues: readonly string[]
  readonly min: number | string | null
  readonly max: number | string | null
}

/** One loaded table: a CSV/TSV document, or one sheet of a workbook. */
export interface TableSchema {
  /** The SQL name of the table (`t1`, `t2`, …), unique within one analysis. */
  readonly sqlName: string
  readonly documentId: string
  /** `orders.csv`, `report.xlsx` */
  readonly filename: string
  /** Sheet name for workbooks; null for CSV/TSV. */
  readonly sheet: string | null
  readonly rowCount: number
  /** Data columns only; every table also has ROW_COLUMN. */
  readonly columns: readonly ColumnSchema[]
  /** Its first rows as text, in column order, when known: shown to a language model. */
  readonly sampleRows?: readonly (readonly (string | null)[])[]
}

/**
 * Every loaded table has this integer column: the row number of the row in its file/sheet, the
 * same numbering as the `row_idx` of the document's chunks (so a cited row can be found).
 */
export const ROW_COLUMN = '__row'

/** `values`: several named values, one row whose columns are their names (`{mean: 3.2, std: 1.1}`). */
export type ResultType = 'boolean' | 'number' | 'category' | 'list[number]' | 'list[category]' | 'table' | 'values'

/** What a planner proposes: one query and how to read its result. */
/** Words of the question read as a column, or as a value of a column (the offline planner's grounding). */
export interface WordMapping {
  readonly words: string
  readonly column: string
  /** The cell value the words name, or null when they name the column itself. */
  readonly value: string | null
}

export interface QueryPlan {
  /** One read-only SELECT (or WITH … SELECT) over the tables' sqlNames. */
  readonly sql: string
  readonly resultType: ResultType
  /** The computation in plain words, in the question's language ("count of rows of orders.csv where status = 'late'"). */
  readonly explanation: string
  /**
   * Optional: a SELECT returning ROW_COLUMN of up to 20 rows of `evidenceTable` that support the
   * result (the rows counted, the extreme row, the rows of the top group).
   */
  readonly evidenceSql?: string
  readonly evidenceTable?: string
  /** Which words were read as which columns and values, when the planner knows (the offline one). */
  readonly mapping?: readonly WordMapping[]
  /** A test computed from the query's values once it has run (its p-value needs a distribution DuckDB lacks). */
  readonly test?: DerivedTest
}

/**
 * A statistical test finished in TypeScript (src/data-analysis/derived-test.ts): the query returns
 * the test's inputs in columns named by TEST_INPUTS and a NULL column per output slot; the outputs
 * are filled in, rounded to `decimals`, and the input columns dropped.
 */
/** The tests the planner computes (docs/data-analysis.md, "Tests"). */
/** Between groups (group-tests.ts): Student's and Welch's t-tests, the one-way ANOVA, the chi-square test of independence. */
export type TestKind =
  | 'correlation'
  | 'shapiro'
  | 'dagostino'
  | 'kolmogorov'
  | 'ttest'
  | 'welch'
  | 'anova'
  | 'chisquare'

/** Whether a test's null hypothesis is the affirmative answer (normality) rather than its negation (no correlation, no difference, independence). */
export function nullIsAffirmative(kind: TestKind): boolean {
  return kind === 'shapiro' || kind === 'dagostino' || kind === 'kolmogorov'
}

export interface DerivedTest {
  /** `correlation`: the significance of the Pearson or Spearman correlation in `__test_r` over `__test_n` rows; `shapiro`: Shapiro-Wilk over the values listed in `__test_values`; `kolmogorov`: Kolmogorov-Smirnov against the normal law over the same values (its verdict only); `dagostino`: D'Agostino-Pearson's K² from `__test_n`, `__test_skewness` (biased g₁) and `__test_kurtosis` (biased b₂); `ttest`, `welch`, `anova`: from the groups' summaries in `__test_groups`; `chisquare`: from the counts in `__test_cells`. */
  readonly kind: TestKind
  readonly outputs: readonly TestOutput[]
  /** The significance level a verdict compares the p-value with. */
  readonly alpha: number | null
  readonly decimals: number | null
}

/**
 * One value a test gives: its p-value, its statistic (W, K²), or a verdict: `affirmative` (the
 * data are normal; the correlation is significant) or `negative`, the answer format's own words.
 */
export type TestOutput =
  | { readonly slot: string; readonly value: 'p' | 'statistic' }
  | ({ readonly slot: string; readonly value: 'verdict' } & Verdict)

/**
 * A verdict's answers: two, decided by the p-value alone (`affirmative`, `negative`), or several,
 * each with the rule the question states for it (`cases`; docs/data-analysis.md, "Tests").
 */
export type Verdict =
  | { readonly affirmative: string; readonly negative: string }
  | { readonly cases: readonly VerdictCase[] }

/** One answer of a ruled verdict and when it is given; no condition: otherwise. */
export interface VerdictCase {
  readonly answer: string
  readonly when: readonly VerdictCondition[]
}

/** A test's value compared with a number: its p-value, its correlation r, or |r|. */
export interface VerdictCondition {
  readonly quantity: 'p' | 'r' | 'abs_r'
  readonly op: '<' | '<=' | '>' | '>='
  readonly value: number
}

/** The columns a test's inputs come in: dropped from the result once the test is computed. */
export const TEST_INPUTS = {
  n: '__test_n',
  r: '__test_r',
  values: '__test_values',
  skewness: '__test_skewness',
  kurtosis: '__test_kurtosis',
  /** Per group: `[count, mean, sample variance]`, in the groups' order. */
  groups: '__test_groups',
  /** Per pair of values of the two columns: `[value, value, count]`. */
  cells: '__test_cells',
} as const

export type PlanOutcome =
  | { readonly kind: 'plan'; readonly plan: QueryPlan }
  /** The planner cannot map the question (unknown column, unsupported shape): said, never guessed. */
  | { readonly kind: 'declined'; readonly reason: string }

export interface QuestionPlanner {
  /** `language`: ISO 639-1 of the question (`en`, `fr`, …). */
  plan(question: string, tables: readonly TableSchema[], language: string): Promise<PlanOutcome>
}

/** Double-quotes an SQL identifier (column headers may hold spaces, quotes, any character). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}
