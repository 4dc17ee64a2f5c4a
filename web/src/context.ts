import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Api } from './api'

/** What every page works with: the API and the signed-in company. */
export interface Workspace {
  readonly api: Api
  readonly companyId: string
  readonly companyName: string
  readonly defaultBotId: string
}

export const WorkspaceContext = createContext<Workspace | null>(null)

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext)
  if (!workspace) throw new Error('useWorkspace outside a signed-in page')
  return workspace
}
