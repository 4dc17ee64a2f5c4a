import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import onnxProto from 'onnx-proto'

const { onnx } = onnxProto

/**
 * Words the tiny model knows, grouped by meaning: each group is one dimension of the model's
 * vectors, so a text's embedding is its bag of meanings (every other word is [UNK], a zero vector).
 * Mirrors the fake embeddings server (fake-embeddings.ts) so the same documents can be used.
 */
export const TINY_MODEL_CONCEPTS: readonly (readonly string[])[] = [
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'motor', 'fleet'],
  ['repair', 'repairs', 'mend', 'fix', 'mechanic', 'garage'],
  ['lunch', 'menu', 'canteen', 'soup', 'salad', 'noon', 'meal'],
  ['train', 'tickets', 'travel', 'trip', 'journey', 'desk'],
  ['password', 'account', 'login', 'reset'],
]

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const
const FLOAT = 1
const INT64 = 7
const INT = 2

/**
 * Writes a BERT-shaped ONNX feature-extraction model into `dir` (onnx/model.onnx, tokenizer.json,
 * tokenizer_config.json, config.json), entirely offline with onnx-proto. The graph is a lookup
 * of each token's row in an embedding table, times the attention mask: `last_hidden_state` of shape
 * [batch, seq, concepts]. Real transformers.js code (tokenizer, session, pooling) runs on it.
 */
export function writeTinyOnnxModel(dir: string, concepts = TINY_MODEL_CONCEPTS): void {
  mkdirSync(join(dir, 'onnx'), { recursive: true })
  const words = [...SPECIAL, ...concepts.flat()]
  const vocab = Object.fromEntries(words.map((word, index) => [word, index]))
  const hidden = concepts.length
  const table: number[] = []
  for (let row = 0; row < SPECIAL.length; row++) table.push(...new Array<number>(hidden).fill(0))
  concepts.forEach((group, concept) => {
    for (const _ of group) table.push(...Array.from({ length: hidden }, (_, i) => (i === concept ? 1 : 0)))
  })

  const dims = (names: readonly (string | number)[]) => ({
    dim: names.map((name) => (typeof name === 'number' ? { dimValue: name } : { dimParam: name })),
  })
  const value = (name: string, elemType: number, shape: readonly (string | number)[]) => ({
    name,
    type: { tensorType: { elemType, shape: dims(shape) } },
  })
  const graph = {
    name: 'tiny-bert',
    initializer: [
      { name: 'E', dataType: FLOAT, dims: [words.length, hidden], floatData: table },
      { name: 'axes', dataType: INT64, dims: [1], int64Data: [-1] },
    ],
    input: [
      value('input_ids', INT64, ['batch', 'seq']),
      value('attention_mask', INT64, ['batch', 'seq']),
      value('token_type_ids', INT64, ['batch', 'seq']),
    ],
    output: [value('last_hidden_state', FLOAT, ['batch', 'seq', hidden])],
    node: [
      { opType: 'Gather', input: ['E', 'input_ids'], output: ['g'], name: 'gather' },
      { opType: 'Cast', input: ['attention_mask'], output: ['mf'], attribute: [{ name: 'to', type: INT, i: FLOAT }] },
      { opType: 'Unsqueeze', input: ['mf', 'axes'], output: ['mu'], name: 'unsqueeze' },
      { opType: 'Mul', input: ['g', 'mu'], output: ['masked'], name: 'mask' },
      // token_type_ids must be an input of a BERT model; 0 for single texts, so this adds nothing.
      { opType: 'Cast', input: ['token_type_ids'], output: ['tf'], attribute: [{ name: 'to', type: INT, i: FLOAT }] },
      { opType: 'Unsqueeze', input: ['tf', 'axes'], output: ['tu'], name: 'unsqueeze2' },
      { opType: 'Mul', input: ['tu', 'tu'], output: ['zero'], name: 'square' },
      { opType: 'Add', input: ['masked', 'zero'], output: ['last_hidden_state'], name: 'add' },
    ],
  }
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'lantern-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  })
  writeFileSync(join(dir, 'onnx/model.onnx'), onnx.ModelProto.encode(model).finish())

  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  })
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((token, id) => special(id, token)),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  }
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer))
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 512,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
    }),
  )
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: hidden,
      vocab_size: words.length,
      num_attention_heads: 1,
      num_hidden_layers: 1,
    }),
  )
}
