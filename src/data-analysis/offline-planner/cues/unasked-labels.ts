import { escapeRegex } from '../../../lib/regex.js'

/**
 * "Results for skewness and kurtosis are defined as 'heavy' if they fall outside the range of -0.5
 * to 0.5": a sentence that defines a label for the values, by a rule of its own. When the answer
 * format never mentions the label, no answer is that label: the sentence says nothing about the
 * rows or the values asked, and its quoted word and numbers must not become conditions. When the
 * format mentions it, the sentence is a verdict's rule (verdict-rules.ts) and stays.
 */

/** A sentence: up to a full stop that is no decimal point, or a line end. */
const SENTENCE = /(?:[^.!?\n]|\.(?=\d))+/g
/** A quoted label after a verb that defines one ("defined as 'heavy'", "considered 'outliers'"). */
const DEFINED_LABEL =
  /\b(?:defined|considered|labell?ed|classified|categori[sz]ed|termed)\s+(?:as\s+)?["'‘“]([^"'‘’“”\n]{1,40})["'’”]/i
/** The rule of the definition: it must follow the label ("… 'heavy' if …"). */
const CONDITION_WORD = /\b(?:if|when|whenever)\b/i

/** The spans of the constraints' sentences that define a label the answer format does not mention. */
export function unaskedLabelSentences(constraints: string, format: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = []
  for (const sentence of constraints.matchAll(SENTENCE)) {
    const defined = DEFINED_LABEL.exec(sentence[0])
    const label = defined?.[1]?.trim()
    if (!defined || !label) continue
    if (!CONDITION_WORD.test(sentence[0].slice(defined.index + defined[0].length))) continue
    if (new RegExp(`(?<![\\w-])${escapeRegex(label)}(?![\\w-])`, 'i').test(format)) continue
    const start = sentence.index ?? 0
    spans.push([start, start + sentence[0].length])
  }
  return spans
}
