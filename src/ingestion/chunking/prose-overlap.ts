import { joinUnits, type Unit } from './prose-unit.js'
import { tailWithin } from './text.js'
import { countTokens } from './tokens.js'

/** The last sentences (at most `overlap` tokens) of the prose just emitted, as one unit. */
export function overlapOf(emitted: readonly Unit[], overlap: number): Unit | undefined {
  if (overlap === 0) return undefined
  const used: Unit[] = []
  let tokens = 0
  for (let i = emitted.length - 1; i >= 0 && tokens < overlap; i--) {
    const unit = emitted[i] as Unit
    if (unit.heading) break
    used.unshift(unit)
    tokens += unit.tokens + 1
  }
  if (used.length === 0) return undefined
  const text = tailWithin(joinUnits(used), overlap)
  if (!text) return undefined
  return {
    text,
    tokens: countTokens(text),
    firstPage: used[used.length - 1]?.lastPage,
    lastPage: used[used.length - 1]?.lastPage,
    joinBefore: '\n',
    heading: false,
  }
}
