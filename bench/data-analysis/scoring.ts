/**
 * Scoring as SemEval-2025 Task 8 (DataBench) does it: booleans True/False, numbers equal after
 * rounding to two decimals (small tolerance, truncation accepted), categories exact, lists as
 * multisets of their items. Plus the InfiAgent-DABench slots `@name[value]`.
 */

export type AnswerType = 'boolean' | 'number' | 'category' | 'list[number]' | 'list[category]'

/** Items of a gold list: `['a', "b's"]`, `[1, 2.5]` or `[Andre Drummond, Rudy Gobert]`. */
export function parseGoldList(gold: string): string[] {
  const body = gold.trim().replace(/^\[/, '').replace(/\]$/, '').trim()
  if (body === '') return []
  const items: string[] = []
  if (/^['"]/.test(body)) {
    let i = 0
    while (i < body.length) {
      const quote = body[i]
      if (quote === "'" || quote === '"') {
        let j = i + 1
        let value = ''
        while (j < body.length && body[j] !== quote) {
          if (body[j] === '\\' && j + 1 < body.length) j++
          value += body[j]
          j++
        }
        items.push(value)
        i = j + 1
      } else i++
    }
    return items
  }
  return body.split(',').map((item) => item.trim())
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'string') {
    const cleaned = value.trim().replace(/[$€£%\s]/g, '')
    if (cleaned === '') return null
    const parsed = Number(cleaned.replace(/,(\d{1,2})$/, '.$1').replaceAll(',', ''))
    return Number.isFinite(parsed) ? parsed : null
  }
  return null
}

export function numbersMatch(value: unknown, gold: string | number): boolean {
  const a = toNumber(value)
  const b = toNumber(gold)
  if (a === null || b === null) return false
  if (Math.abs(Math.round(a * 100) - Math.round(b * 100)) <= 1) return true
  if (Math.trunc(a * 100) === Math.trunc(b * 100)) return true
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b))
}

function booleanOf(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value !== 0
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase()
    if (['true', 'yes', 'oui', 'vrai'].includes(v)) return true
    if (['false', 'no', 'non', 'faux'].includes(v)) return false
  }
  return null
}

function categoryOf(value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value)) return String(value)
  return String(value)
}

/** Multiset comparison: every gold item matched by one answer item, same sizes. */
function listsMatch(values: unknown[], gold: string[], numeric: boolean): boolean {
  if (values.length !== gold.length) return false
  const remaining = [...values]
  for (const item of gold) {
    const index = remaining.findIndex((value) =>
      numeric
        ? numbersMatch(value, item)
        : categoryOf(value) === item || (categoryOf(value).trim() === item.trim() && numbersMatch(value, item)),
    )
    if (index < 0) return false
    remaining.splice(index, 1)
  }
  return true
}

/** Is a typed result right for a DataBench gold answer? */
export function scoreDatabench(result: unknown, gold: string, type: AnswerType): boolean {
  switch (type) {
    case 'boolean': {
      const b = booleanOf(Array.isArray(result) ? result[0] : result)
      return b !== null && String(b) === gold.trim().toLowerCase()
    }
    case 'number':
      return numbersMatch(Array.isArray(result) && result.length === 1 ? result[0] : result, gold)
    case 'category': {
      const value = Array.isArray(result) && result.length === 1 ? result[0] : result
      if (value === null || value === undefined) return false
      return categoryOf(value) === gold || (typeof value === 'number' && numbersMatch(value, gold))
    }
    case 'list[number]':
    case 'list[category]': {
      const values = Array.isArray(result) ? result : result === null || result === undefined ? [] : [result]
      return listsMatch(values, parseGoldList(gold), type === 'list[number]')
    }
  }
}

/** The answer-text scoring of the plain RAG baseline: the gold must appear in the text. */
export function scoreText(text: string, gold: string, type: AnswerType): boolean {
  const lower = text.toLowerCase()
  switch (type) {
    case 'boolean': {
      const yes = /\b(yes|true|oui|vrai)\b/.test(lower)
      const no = /\b(no|false|non|faux|not)\b/.test(lower)
      return gold.trim().toLowerCase() === 'true'
        ? yes && !/\b(no|false)\b/.test(lower.slice(0, 40))
        : no && !/^\W*(yes|true)\b/.test(lower)
    }
    case 'number': {
      const numbers = Array.from(text.matchAll(/-?\d[\d,]*(?:\.\d+)?/g), (m) => m[0])
      return numbers.some((n) => numbersMatch(n, gold))
    }
    case 'category':
      return gold.trim() !== '' && lower.includes(gold.trim().toLowerCase())
    case 'list[number]': {
      const numbers = Array.from(text.matchAll(/-?\d[\d,]*(?:\.\d+)?/g), (m) => m[0])
      const items = parseGoldList(gold)
      return items.length > 0 && items.every((item) => numbers.some((n) => numbersMatch(n, item)))
    }
    case 'list[category]': {
      const items = parseGoldList(gold)
      return items.length > 0 && items.every((item) => lower.includes(item.trim().toLowerCase()))
    }
  }
}
