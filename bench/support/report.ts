import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './data.js'

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

export function machine(): Machine {
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

export function machineLine(m: Machine): string {
  return `${m.nproc} CPUs (${m.cpu}), ${m.ramGiB} GiB RAM, Node ${m.node}, ${m.platform}, commit ${m.commit}, ${m.date}`
}

/**
 * The 1- and 5-minute load averages now: on a shared machine other work competes for the CPUs,
 * which the same-run baseline only partly cancels out, so every report states it.
 */
export function load(): string {
  const [one, five] = loadavg()
  return `${round(one ?? 0, 2)} (1 min) / ${round(five ?? 0, 2)} (5 min)`
}

/** A Markdown table; cells are escaped for `|` and newlines. */
export function table(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const cell = (value: string | number) =>
    String(value)
      .replace(/\|/g, '\\|')
      .replace(/\s*\n\s*/g, ' ')
  const lines = [`| ${header.map(cell).join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`]
  for (const row of rows) lines.push(`| ${row.map(cell).join(' | ')} |`)
  return lines.join('\n')
}

/**
 * Writes the full results as JSON and the Markdown summary to `.tmp/bench/<name>-<time>.{json,md}`
 * (ignored by git) and returns the Markdown path; the summary is meant to be pasted into
 * docs/benchmarks.md.
 */
export function saveResults(name: string, json: unknown, markdown: string): string {
  const dir = join(ROOT, '.tmp/bench')
  mkdirSync(dir, { recursive: true })
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  writeFileSync(join(dir, `${name}-${stamp}.json`), `${JSON.stringify(json, null, 2)}\n`)
  const md = join(dir, `${name}-${stamp}.md`)
  writeFileSync(md, `${markdown}\n`)
  return md
}

/** `12.3` */
export function round(value: number, digits = 1): number {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}
