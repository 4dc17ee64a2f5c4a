import { useEffect, useState } from 'preact/hooks'
import { useWorkspace } from '../context'
import { t } from '../strings'

/** Sub-folders listed per folder; a folder holding more is listed in full in the table. */
const CHILDREN = 100

/** `/a/b/` → ['/', '/a/', '/a/b/']: a folder and its ancestors, from the root. */
export function ancestorsOf(path: string): string[] {
  const parts = path.split('/').filter(Boolean)
  return ['/', ...parts.map((_, index) => `/${parts.slice(0, index + 1).join('/')}/`)]
}

const folderName = (path: string) => (path === '/' ? '/' : `${path.split('/').filter(Boolean).at(-1)}/`)

/**
 * The knowledge base's folders as a tree: each folder opens its sub-folders on demand, the folder
 * shown in the table is marked, and the folders leading to it are open. `version` changes when a
 * folder is created or deleted, so that the open folders list their sub-folders again.
 */
export function FolderTree(props: { current: string; version: number; onOpen: (path: string) => void }) {
  const { current, version, onOpen } = props
  const [open, setOpen] = useState<Set<string>>(new Set(ancestorsOf(current)))
  useEffect(() => setOpen((now) => new Set([...now, ...ancestorsOf(current)])), [current])
  const toggle = (path: string) =>
    setOpen((now) => {
      const next = new Set(now)
      if (!next.delete(path)) next.add(path)
      return next
    })
  return (
    <nav class="folder-tree" aria-label={t.kb.folders}>
      <ul>
        <Folder path="/" {...{ current, version, onOpen, open, toggle }} />
      </ul>
    </nav>
  )
}

function Folder(props: {
  path: string
  current: string
  version: number
  open: ReadonlySet<string>
  toggle: (path: string) => void
  onOpen: (path: string) => void
}) {
  const { api, companyId } = useWorkspace()
  const { path, current, version, open, toggle, onOpen } = props
  const expanded = open.has(path)
  const [children, setChildren] = useState<string[] | null>(null)
  useEffect(() => {
    if (!expanded) return
    api
      .call(
        api.client.GET('/apif/v2/company/{company_id}/knowledge-base', {
          params: { path: { company_id: companyId }, query: { path, limit: CHILDREN } },
        }),
      )
      .then((entries) => setChildren(entries.filter((entry) => entry.is_folder).map((entry) => entry.object_name)))
      .catch(() => setChildren([]))
  }, [expanded, version])
  const leaf = children !== null && children.length === 0
  return (
    <li>
      <span class="folder-row">
        <button
          type="button"
          class="twisty"
          aria-expanded={leaf ? undefined : expanded}
          aria-label={expanded ? t.kb.collapse(path) : t.kb.expand(path)}
          disabled={leaf}
          onClick={() => toggle(path)}
        >
          {leaf ? '·' : expanded ? '▾' : '▸'}
        </button>
        <button
          type="button"
          class="link"
          aria-current={path === current ? 'location' : undefined}
          onClick={() => onOpen(path)}
        >
          {folderName(path)}
        </button>
      </span>
      {expanded && children && children.length > 0 && (
        <ul>
          {children.map((child) => (
            <Folder key={child} path={child} {...{ current, version, open, toggle, onOpen }} />
          ))}
        </ul>
      )}
    </li>
  )
}
