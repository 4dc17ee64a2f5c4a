import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { useWorkspace } from '../context'
import type { KbEntry } from '../types'

/**
 * Checkboxes (named `name`) over the documents under `folders` (the whole knowledge base when
 * none) whose path passes `accept`: the tables for data analysis, the documents a user may narrow
 * a question to when the bot allows manual filters.
 */
export function DocumentChoice(props: {
  name: string
  legend: ComponentChildren
  folders: readonly string[]
  accept?: (path: string) => boolean
}) {
  const { api, companyId } = useWorkspace()
  const { name, legend, folders, accept } = props
  const [documents, setDocuments] = useState<KbEntry[]>([])
  useEffect(() => {
    const roots = folders.length > 0 ? folders : ['/']
    Promise.all(
      roots.map((path) =>
        api.call(
          api.client.GET('/apif/v2/company/{company_id}/knowledge-base', {
            params: { path: { company_id: companyId }, query: { path, recursive: true, limit: 100 } },
          }),
        ),
      ),
    )
      .then((lists) =>
        setDocuments(lists.flat().filter((entry) => entry.is_file && (accept?.(entry.object_name) ?? true))),
      )
      .catch(() => setDocuments([]))
  }, [folders.join('\n')])
  return (
    <fieldset class="table-picker">
      <legend>{legend}</legend>
      {documents.map((document) => (
        <label class="inline" key={document.id}>
          <input type="checkbox" name={name} value={document.id} />
          {document.object_name}
        </label>
      ))}
    </fieldset>
  )
}
