import { ApiError } from '../api'
import { t } from '../strings'

/** An API error as its problem's `detail`, announced to screen readers; nothing when there is none. */
export function Problem({ error }: { error: unknown }) {
  if (!error) return null
  const text = error instanceof ApiError || error instanceof Error ? error.message : t.errors.unknown
  return (
    <p class="problem" role="alert">
      {text}
    </p>
  )
}
