/**
 * The start-up every benchmark shares, done once: its options (`--help`, and for the benchmarks of
 * the service the common options), the shared data it needs, the machine and load average it runs
 * on, the service it starts and stops, its results written to `.tmp/bench/`, and its exit code.
 * A benchmark script holds only what it measures, in a `main(bench)` that resolves with its
 * results, and ends with
 *
 *     runBench({ name: 'ingest-quality', usage: USAGE, options: {…}, data: ['…'], service: {…}, run: main })
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { type ParseArgsConfig, parseArgs } from 'node:util'
import { ROOT, requireData } from './data.js'
import { round } from './report.js'
import { BenchServer, type ServerRuntime } from './server.js'

/** Parsed option values by name. */
export type Values = Record<string, string | boolean | undefined>

/** The options every benchmark of the service takes. */
export interface CommonOptions {
  readonly runtime: ServerRuntime
  readonly workers: number
  readonly timeoutMs: number
  readonly keep: boolean
  readonly loader: 'STANDARD' | 'ADVANCED' | undefined
  /** LANTERN_PDF_TEXT of the service; undefined: its default (`auto`). */
  readonly pdfText: 'auto' | 'mutool' | 'pdfjs' | undefined
}

const COMMON = {
  server: { type: 'string', default: 'dist' },
  workers: { type: 'string', default: '2' },
  'timeout-min': { type: 'string' },
  loader: { type: 'string' },
  'pdf-text': { type: 'string' },
  keep: { type: 'boolean', default: false },
} as const
const HELP = { type: 'boolean', default: false } as const

type ParseArgsOptions = NonNullable<ParseArgsConfig['options']>

export const COMMON_USAGE = `  --server dist|source   run the built service (default; "npm run build" first) or the TypeScript source
  --workers N            LANTERN_WORKERS of the service (default 2)
  --timeout-min M        overall time limit of the run
  --loader STANDARD|ADVANCED   loader_type sent with every upload (default: the service's default)
  --pdf-text auto|mutool|pdfjs LANTERN_PDF_TEXT of the service (default: the service's default, auto)
  --keep                 keep the temporary data folder (database, server.log)`

/** The service settings a report line names. */
export function settingsLine(common: CommonOptions): string {
  return `${common.workers} workers; loader ${common.loader ?? 'service default'}; PDF text ${common.pdfText ?? 'service default (auto)'}`
}

/** A bad option value found by the benchmark itself: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** What a result depends on besides the code: recorded with every run. */
export interface Machine {
  readonly date: string
  readonly nproc: number
  readonly cpu: string
  readonly ramGiB: number
  readonly node: string
  readonly platform: string
  readonly commit: string
}

function describeMachine(): Machine {
  let commit = 'unknown'
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' })
    if (dirty.trim()) commit += ' + uncommitted changes in src/'
  } catch {
    // not a git checkout
  }
  return {
    date: new Date().toISOString(),
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    ramGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    commit,
  }
}

/**
 * The 1- and 5-minute load averages now: on a shared machine other work competes for the CPUs,
 * which the same-run baseline only partly cancels out, so every report states it.
 */
export function load(): string {
  const [one, five] = loadavg()
  return `${round(one ?? 0, 2)} (1 min) / ${round(five ?? 0, 2)} (5 min)`
}

/** What a benchmark hands back: written to `.tmp/bench/<name>-<time>.{json,md}` and printed. */
export interface Results {
  /** The full results. */
  readonly json: unknown
  /** The summary, meant to be pasted into docs/benchmarks.md. */
  readonly markdown: string
  /** The files' name when it is not the benchmark's (e.g. one per data set). */
  readonly name?: string
}

/** How one start of the service differs from the common options. */
export interface ServerStart {
  /** LANTERN_* settings besides LANTERN_PDF_TEXT (which --pdf-text sets). */
  readonly env?: Readonly<Record<string, string>>
  /** LANTERN_WORKERS when not --workers. */
  readonly workers?: number
  /** An existing data folder (kept by an earlier run) instead of a fresh one; it is kept. */
  readonly dataDir?: string
}

/** What a benchmark's `run` is given. */
export interface Bench {
  readonly values: Values
  /** The absolute paths of `data`, in its order. */
  readonly data: string[]
  readonly machine: Machine
  /** `2 CPUs (…), 23.5 GiB RAM, Node v20…, linux x64, commit …, <date>` */
  readonly machineLine: string
  readonly loadAtStart: string
  /** `<machine line>; load average at start <then>, at end <now>` */
  machineAndLoad(): string
  /** Prints `header`, then the machine line with the load average. */
  announce(header: string): void
}

/** What the `run` of a benchmark of the service is given besides. */
export interface ServiceBench extends Bench {
  readonly common: CommonOptions
  /**
   * Starts the service with the common options (and `start`), runs `use` on it, and stops it
   * whether `use` resolves or throws; resolves with what `use` resolved with.
   */
  withServer<T>(start: ServerStart, use: (server: BenchServer) => Promise<T>): Promise<T>
}

interface BaseSpec {
  /** `bench:<name>` in messages; the results' file name. */
  readonly name: string
  /** Printed on --help and with a bad option. */
  readonly usage: string
  /** Options besides --help (and the common ones). */
  readonly options?: ParseArgsOptions
  /**
   * Paths under the shared data folder the benchmark reads: when one is missing, it is skipped
   * (exit code 0) before `run`.
   */
  readonly data?: readonly string[]
}

/** A benchmark that reads its input in this process. */
export interface BenchSpec extends BaseSpec {
  readonly service?: undefined
  readonly run: (bench: Bench) => Promise<Results>
}

/** A benchmark of the service: it takes the common options and may start the service. */
export interface ServiceBenchSpec extends BaseSpec {
  readonly service: {
    /** Default of --timeout-min. */
    readonly timeoutMin: number
    /** LANTERN_LOG_LEVEL of the service (default warn; `info` also logs each request). */
    readonly logLevel?: 'info' | 'warn'
  }
  readonly run: (bench: ServiceBench) => Promise<Results>
}

function positive(name: string, raw: string): number {
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${name} must be a positive number, got "${raw}"`)
  return value
}

function commonOptions(values: Values, defaultTimeoutMin: number): CommonOptions {
  const server = String(values.server)
  if (server !== 'dist' && server !== 'source') throw new UsageError(`--server must be dist or source, got "${server}"`)
  const loader = values.loader === undefined ? undefined : String(values.loader).toUpperCase()
  if (loader !== undefined && loader !== 'STANDARD' && loader !== 'ADVANCED') {
    throw new UsageError(`--loader must be STANDARD or ADVANCED, got "${values.loader}"`)
  }
  const pdfText = values['pdf-text'] === undefined ? undefined : String(values['pdf-text'])
  if (pdfText !== undefined && pdfText !== 'auto' && pdfText !== 'mutool' && pdfText !== 'pdfjs') {
    throw new UsageError(`--pdf-text must be auto, mutool or pdfjs, got "${pdfText}"`)
  }
  return {
    runtime: server,
    workers: positive('workers', String(values.workers)),
    timeoutMs: positive('timeout-min', String(values['timeout-min'] ?? defaultTimeoutMin)) * 60_000,
    keep: Boolean(values.keep),
    loader,
    pdfText,
  }
}

/** The option values; prints the usage and ends the process (code 0) on --help. */
function parse(spec: BenchSpec | ServiceBenchSpec): Values {
  let values: Values
  try {
    const options: ParseArgsOptions = { ...(spec.service ? COMMON : {}), ...spec.options, help: HELP }
    values = parseArgs({ options, allowPositionals: false }).values as Values
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  if (values.help) {
    console.log(spec.usage)
    process.exit(0)
  }
  return values
}

/**
 * The `run` of a benchmark of the service, given the common options (checked now, before the
 * data) and `withServer`.
 */
function serviceRun(spec: ServiceBenchSpec, values: Values): (bench: Bench) => Promise<Results> {
  const common = commonOptions(values, spec.service.timeoutMin)
  const withServer = async <T>(start: ServerStart, use: (server: BenchServer) => Promise<T>): Promise<T> => {
    const server = await BenchServer.start({
      runtime: common.runtime,
      workers: start.workers ?? common.workers,
      keep: common.keep,
      logLevel: spec.service.logLevel,
      env: { ...(common.pdfText ? { LANTERN_PDF_TEXT: common.pdfText } : {}), ...start.env },
      dataDir: start.dataDir,
    })
    try {
      return await use(server)
    } finally {
      await server.stop()
    }
  }
  return (bench) => spec.run({ ...bench, common, withServer })
}

/** Writes the full results as JSON and the summary as Markdown; returns the Markdown file's path. */
function saveResults(name: string, results: Results): string {
  const dir = join(ROOT, '.tmp/bench')
  mkdirSync(dir, { recursive: true })
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  writeFileSync(join(dir, `${name}-${stamp}.json`), `${JSON.stringify(results.json, null, 2)}\n`)
  const md = join(dir, `${name}-${stamp}.md`)
  writeFileSync(md, `${results.markdown}\n`)
  return md
}

async function start(spec: BenchSpec | ServiceBenchSpec): Promise<void> {
  const values = parse(spec)
  const run = spec.service ? serviceRun(spec, values) : spec.run
  const data = spec.data ? requireData(`bench:${spec.name}`, ...spec.data) : []
  const machine = describeMachine()
  const machineLine = `${machine.nproc} CPUs (${machine.cpu}), ${machine.ramGiB} GiB RAM, Node ${machine.node}, ${machine.platform}, commit ${machine.commit}, ${machine.date}`
  const loadAtStart = load()
  const results = await run({
    values,
    data,
    machine,
    machineLine,
    loadAtStart,
    machineAndLoad: () => `${machineLine}; load average at start ${loadAtStart}, at end ${load()}`,
    announce: (header) => {
      console.log(header)
      console.log(`${machineLine}; load average ${loadAtStart}`)
    },
  })
  const saved = saveResults(results.name ?? spec.name, results)
  console.log(`\n${results.markdown}`)
  console.log(`\nresults saved to ${saved}`)
}

/**
 * Runs a benchmark: its options, its data, the machine, then `run` (which starts the service
 * through `withServer`, so that it is stopped on an error too), then its results written and
 * printed. Ends the process: code 0 when done, 1 on an error, 2 on a bad option (with the usage).
 */
export function runBench(spec: BenchSpec | ServiceBenchSpec): void {
  start(spec).then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(`${error.message}\n\n${spec.usage}`)
        process.exit(2)
      }
      console.error(error)
      process.exit(1)
    },
  )
}
