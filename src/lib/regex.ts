/** `text` with every regex metacharacter escaped, to match it literally inside a built pattern. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
