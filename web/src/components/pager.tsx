import { t } from '../strings'

/** Previous / next over an offset-paginated list of `limit` items per page. */
export function Pager(props: { offset: number; limit: number; count: number; onChange: (offset: number) => void }) {
  const { offset, limit, count, onChange } = props
  if (offset === 0 && count < limit) return null
  return (
    <nav class="pager" aria-label={t.pager.label}>
      <button type="button" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        {t.pager.previous}
      </button>
      <span>
        {offset + 1}–{offset + count}
      </span>
      <button type="button" disabled={count < limit} onClick={() => onChange(offset + limit)}>
        {t.pager.next}
      </button>
    </nav>
  )
}
