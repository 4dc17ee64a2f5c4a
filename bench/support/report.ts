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

/** `12.3` */
export function round(value: number, digits = 1): number {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}
