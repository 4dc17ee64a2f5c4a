/**
 * A LIKE pattern matching values that contain `text` literally: `%`, `_` and `\` are escaped
 * with `\`, so the query must say `escape '\'`.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}
