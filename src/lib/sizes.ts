const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const

/** Parses `10GB`, `512 MB`, `1.5TB` (powers of 1024) into bytes; undefined when malformed. */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|TB)\s*$/i.exec(text)
  if (!match?.[1] || !match[2]) return undefined
  const exponent = UNITS.indexOf(match[2].toUpperCase() as (typeof UNITS)[number])
  const bytes = Math.round(Number(match[1]) * 1024 ** exponent)
  return Number.isSafeInteger(bytes) ? bytes : undefined
}

/** Formats bytes with the largest unit that divides them exactly: 10737418240 → `10GB`. */
export function formatByteSize(bytes: number): string {
  for (let exponent = UNITS.length - 1; exponent > 0; exponent--) {
    const unit = 1024 ** exponent
    if (bytes >= unit && bytes % unit === 0) return `${bytes / unit}${UNITS[exponent]}`
  }
  return `${bytes}B`
}
