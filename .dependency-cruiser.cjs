/**
 * The dependency rule of docs/architecture.md: the rooms of src/, from the top (the composition root)
 * to the bottom (shared vocabulary). A module may import from its own room and from rooms below it,
 * never from one above, and no import cycle may form anywhere in src/.
 * The rooms and their order are in .dependency-rooms.cjs (docs/architecture.md lists them in that order).
 * Checked by `npm test` (test/unit/dependency-rule.test.ts) and by `npx depcruise src`.
 */
const { layers } = require('./.dependency-rooms.cjs')

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** Matches the files of one room: a folder's files, or one top-level file. */
const roomPath = (room) => (room.endsWith('.ts') ? `^src/${escapeRegex(room)}$` : `^src/${escapeRegex(room)}/`)

const upwardRules = layers.flatMap((rooms, rank) =>
  rooms.map((room) => {
    const forbidden = [...layers.slice(0, rank).flat(), ...rooms.filter((other) => other !== room)]
    return {
      name: `no-upward-from-${room.replace(/\.ts$/, '')}`,
      comment: `${room} sits below ${forbidden.join(', ')}: it may not import from them`,
      severity: 'error',
      from: { path: roomPath(room) },
      to: { path: forbidden.map(roomPath) },
    }
  }),
)

module.exports = {
  forbidden: [
    ...upwardRules,
    {
      name: 'no-cycle',
      comment: 'an import cycle ties modules together so that neither can change or load alone',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-unknown-room',
      comment: 'every folder and top-level file of src/ has its rank in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/', pathNot: layers.flat().map(roomPath) },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
