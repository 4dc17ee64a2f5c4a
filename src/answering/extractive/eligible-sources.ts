import type { DocumentSpan } from '../../retrieval/context/span.js'
import type { RetrievedChunk } from '../../retrieval/types.js'
import { mentions, type NamedThing } from '../../text/names.js'
import { contextText } from './context-text.js'

/**
 * Which sources may answer, by who the question is about (its span): when it names subjects
 * that documents are about, only those documents' chunks (another company's look-alike passage
 * answers nothing). When it names no such subject, a name it gives that no document is about must
 * be, every word of it, in a source's text, and only such sources may answer; a word in capitals
 * (`MGM` or `USD`?) counts as such a name only when every word of it is rare in the knowledge base
 * (`rare`: none or a few chunks have it; `USD` is in dozens), and a quoted passage must name them
 * too (`names`): the chunk of another company that mentions them once answers nothing about them
 * elsewhere. Null when no source may: the answer is "not found".
 */
export function eligibleSources(
  sources: readonly RetrievedChunk[],
  span: DocumentSpan | undefined,
  rare: (term: string) => boolean,
): { sources: Set<number>; names: NamedThing[] } | null {
  let eligible = new Set(sources.map((_, index) => index))
  const names: NamedThing[] = []
  if (!span) return { sources: eligible, names }
  const named = new Set(span.subjects.flatMap((subject) => subject.documents))
  const lookup = (source: RetrievedChunk) => source.chunkId.startsWith('lookup:')
  if (named.size > 0) {
    eligible = new Set(
      [...eligible].filter(
        (index) => named.has(sources[index]?.documentId ?? '') || lookup(sources[index] as RetrievedChunk),
      ),
    )
  }
  for (const name of span.unknownNames) {
    // Beside a subject the documents know, another name is another name of it (`Block (formerly
    // Square)`), a product, or a second subject the knowledge base lacks: its documents still answer.
    if (named.size > 0) break
    // An unknown word in capitals is a name only if the knowledge base (nearly) never has it (`USD` it has).
    if (!name.certain && !name.terms.every(rare)) continue
    eligible = new Set(
      [...eligible].filter((index) => {
        const source = sources[index] as RetrievedChunk
        return mentions(source.text, name) || mentions(contextText(source), name)
      }),
    )
    names.push(name)
  }
  return [...eligible].some((index) => !lookup(sources[index] as RetrievedChunk)) ? { sources: eligible, names } : null
}
