/** A run of prose: a paragraph, a sentence of a long one, or a sub-heading shown inline. */
export interface Unit {
  readonly text: string
  readonly tokens: number
  readonly firstPage: number | undefined
  readonly lastPage: number | undefined
  /** How it is joined to the unit before it: sentences of one paragraph by a space. */
  readonly joinBefore: ' ' | '\n'
  readonly heading: boolean
}

/** The text of some units, each joined to the one before it as it says. */
export function joinUnits(units: readonly Unit[]): string {
  return units.map((unit, index) => (index ? unit.joinBefore : '') + unit.text).join('')
}
