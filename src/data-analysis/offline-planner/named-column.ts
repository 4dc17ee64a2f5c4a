import type { ColumnSchema } from '../types.js'

/** "the ApplicantIncome column", `'Close' prices`, "the weight for each vehicle" → the column of that exact name. */
export function columnNamed(phrase: string, columns: readonly ColumnSchema[]): ColumnSchema | null {
  // A quoted name is the name, whatever words are around it.
  const quoted = /["'“‘`]([^"'”’`]+)["'”’`]/u.exec(phrase)?.[1]
  const bare = (
    quoted ??
    phrase
      .trim()
      .replace(/^(?:the|a|an)\s+/i, '')
      .replace(/(?:\s+(?:columns?|values?|for\s+each\s+\S+))+$/i, '')
      .replace(/^columns?\s+/i, '')
  )
    .trim()
    .toLowerCase()
  return columns.find((column) => column.name.toLowerCase() === bare) ?? null
}
