import { type Located, pageRange } from './located.js'
import { joinUnits, type Unit } from './prose-unit.js'
import { splitToBudget } from './text.js'
import { countTokens, endOf, endOfJoined, joinedTokens, startOf, startOfJoined } from './tokens.js'

/** What the prose chunks being cut share: their heading-path prefix, the budget, the sheet. */
export interface ProseFrame {
  readonly prefix: string
  readonly prefixTokens: number
  readonly budget: number
  readonly sheet: string | undefined
}

/** The chunk body of some units (see bodies): its tokens, and its ends for the next join. */
interface Body {
  readonly tokens: number | undefined
  /** startOf and endOf of the body's text. */
  readonly start: string
  readonly end: string
}

/**
 * Cuts `units` into one or more chunks within the budget, in order; `last` is the units of the
 * last one (what the next chunk's overlap is taken from).
 */
export function proseChunks(units: Unit[], frame: ProseFrame): { chunks: Located[]; last: Unit[] } {
  const chunks: Located[] = []
  let rest = units
  let last: Unit[] = []
  while (rest.length) {
    const bodies = bodiesOf(rest)
    let count = rest.length
    let tokens = chunkTokens(rest, bodies, count, frame)
    while (tokens > frame.budget && count > 1) {
      count--
      tokens = chunkTokens(rest, bodies, count, frame)
    }
    const group = rest.slice(0, count)
    rest = rest.slice(count)
    if (tokens > frame.budget) {
      // One unit over by a merge or two: cut it finer.
      const only = group[0] as Unit
      const smaller = [...splitToBudget(only.text, Math.max(4, only.tokens - (tokens - frame.budget) - 4))].map(
        (piece, index): Unit => ({ ...only, ...piece, joinBefore: index ? ' ' : only.joinBefore }),
      )
      if (smaller.length > 1) {
        rest = [...smaller, ...rest]
        continue
      }
    }
    const pages = group.filter((unit) => unit.firstPage !== undefined)
    const firstPage = Math.min(...pages.map((unit) => unit.firstPage as number))
    const lastPage = Math.max(...pages.map((unit) => unit.lastPage as number))
    chunks.push({
      category: group.every((unit) => unit.heading) ? 'title' : 'text',
      text: compose(frame.prefix, group),
      tokens,
      pageNumber: pages.length ? pageRange(firstPage, lastPage) : (frame.sheet ?? null),
      rowIdx: null,
    })
    last = group
  }
  return { chunks, last }
}

function compose(prefix: string, units: readonly Unit[]): string {
  const body = joinUnits(units)
  return prefix ? `${prefix}\n${body}` : body
}

/**
 * The bodies of chunks of the first 1, 2, … units: their tokens, each count from the one before
 * and the unit's own (see joinedTokens), and their ends, which is all later joins read; undefined
 * tokens once a join could not be decided there.
 */
function bodiesOf(units: readonly Unit[]): Body[] {
  const bodies: Body[] = []
  let previous: Body | undefined
  for (const unit of units) {
    const body: Body = previous
      ? {
          tokens:
            previous.tokens === undefined
              ? undefined
              : joinedTokens(previous.end, previous.tokens, unit.joinBefore, startOf(unit.text), unit.tokens),
          start: startOfJoined(previous.start, unit.joinBefore, unit.text),
          end: endOfJoined(previous.end, unit.joinBefore, unit.text),
        }
      : { tokens: unit.tokens, start: startOf(unit.text), end: endOf(unit.text) }
    bodies.push(body)
    previous = body
  }
  return bodies
}

/** Exact tokens of the chunk of the first `count` units (counted whole where a join was undecided). */
function chunkTokens(units: readonly Unit[], bodies: readonly Body[], count: number, frame: ProseFrame): number {
  const body = bodies[count - 1] as Body
  const joined =
    body.tokens === undefined
      ? undefined
      : frame.prefix
        ? joinedTokens(frame.prefix, frame.prefixTokens, '\n', body.start, body.tokens)
        : body.tokens
  return joined ?? countTokens(compose(frame.prefix, units.slice(0, count)))
}
