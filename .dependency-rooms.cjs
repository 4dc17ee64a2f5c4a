/**
 * The rooms of src/, from the top (the composition root) to the bottom (shared vocabulary): the
 * order of the dependency rule (.dependency-cruiser.cjs) and of the list in docs/architecture.md.
 * Rooms on one line share a rank: they may not import each other either.
 */
const layers = [
  ['cli', 'main.ts'],
  ['http', 'mcp'],
  ['app-context.ts'],
  ['domain'],
  ['data-analysis'],
  ['answering'],
  ['ingestion'],
  ['retrieval'],
  ['jobs'],
  ['storage'],
  ['text'],
  ['config.ts'],
  ['lib', 'types', 'client'],
]

module.exports = { layers }
