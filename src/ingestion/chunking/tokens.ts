import { Tiktoken } from 'js-tiktoken/lite'
import cl100k from 'js-tiktoken/ranks/cl100k_base'

let encoder: Tiktoken | undefined

function cl100kEncoder(): Tiktoken {
  // Building the ranks takes a few hundred milliseconds: once per process (or worker thread).
  encoder ??= new Tiktoken(cl100k)
  return encoder
}

/**
 * Length of `text` in cl100k_base tokens. Special-token markers such as `<|endoftext|>` inside a
 * document count as ordinary text instead of throwing.
 */
export function countTokens(text: string): number {
  return cl100kEncoder().encode(text, [], []).length
}
