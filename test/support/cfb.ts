/**
 * Compound File Binary containers (MS-CFB) written by hand for tests: the legacy Office formats,
 * Outlook items and encrypted OOXML packages are all one.
 */

const FREE = 0xffffffff
const END = 0xfffffffe

/** An entry of a container: a stream, or a storage with entries of its own. */
export interface CfbNode {
  readonly name: string
  /** Entries inside a storage. */
  readonly children?: readonly CfbNode[]
}

/**
 * A Compound File Binary container (512-byte sectors): sector 0 the FAT, then the directory. The
 * children of each storage are chained through right siblings (a valid, if unbalanced, tree).
 */
export function cfbOf(root: readonly CfbNode[]): Buffer {
  const flat: { name: string; type: number; child: number; right: number }[] = [
    { name: 'Root Entry', type: 5, child: FREE, right: FREE },
  ]
  const place = (nodes: readonly CfbNode[]): number => {
    const ids = nodes.map((node) => {
      flat.push({ name: node.name, type: node.children ? 1 : 2, child: FREE, right: FREE })
      return flat.length - 1
    })
    nodes.forEach((node, i) => {
      const entry = flat[ids[i] as number] as (typeof flat)[number]
      entry.right = ids[i + 1] ?? FREE
      if (node.children) entry.child = place(node.children)
    })
    return ids[0] ?? FREE
  }
  ;(flat[0] as (typeof flat)[number]).child = place(root)
  const dirSectors = Math.ceil(flat.length / 4)
  const out = Buffer.alloc(512 * (2 + dirSectors))
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(out, 0)
  out.writeUInt16LE(0x3e, 24)
  out.writeUInt16LE(3, 26)
  out.writeUInt16LE(0xfffe, 28)
  out.writeUInt16LE(9, 30)
  out.writeUInt16LE(6, 32)
  out.writeUInt32LE(1, 44)
  out.writeUInt32LE(1, 48)
  out.writeUInt32LE(4096, 56)
  out.writeUInt32LE(END, 60)
  out.writeUInt32LE(END, 68)
  for (let i = 0; i < 109; i++) out.writeUInt32LE(i === 0 ? 0 : FREE, 76 + i * 4)
  for (let i = 0; i < 128; i++) out.writeUInt32LE(FREE, 512 + i * 4)
  out.writeUInt32LE(0xfffffffd, 512)
  for (let s = 0; s < dirSectors; s++) out.writeUInt32LE(s + 1 < dirSectors ? s + 2 : END, 512 + (s + 1) * 4)
  flat.forEach((entry, i) => {
    const at = 1024 + i * 128
    out.write(entry.name, at, 'utf16le')
    out.writeUInt16LE((entry.name.length + 1) * 2, at + 64)
    out[at + 66] = entry.type
    out.writeUInt32LE(FREE, at + 68)
    out.writeUInt32LE(entry.right, at + 72)
    out.writeUInt32LE(entry.child, at + 76)
    out.writeUInt32LE(END, at + 116)
  })
  return out
}
