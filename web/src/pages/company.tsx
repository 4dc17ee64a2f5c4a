import { useEffect, useState } from 'preact/hooks'
import { Problem } from '../components/problem'
import { useWorkspace } from '../context'
import { t } from '../strings'
import type { Company, Usage } from '../types'

const mib = (n: number) => `${(n / 1024 ** 2).toFixed(1)} MiB`

/** The licence's end as a date, or "never" for the open-ended licence (year 9999). */
function expiry(expiration: string): string {
  if (expiration.startsWith('9999-')) return t.company.never
  const date = new Date(`${expiration.replace(/(\.\d{3})\d*$/, '$1')}Z`)
  return Number.isNaN(date.getTime()) ? expiration : date.toLocaleString()
}

export function CompanyPage() {
  const { api } = useWorkspace()
  const [company, setCompany] = useState<Company | null>(null)
  const [usage, setUsage] = useState<Usage | null>(null)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    api.call(api.client.GET('/apif/v2/auth/company')).then(setCompany, setError)
    api.call(api.client.GET('/apif/v2/auth/company/usage')).then(setUsage, setError)
  }, [])

  return (
    <section class="company">
      <h2>{company?.name ?? t.company.title}</h2>
      <Problem error={error} />
      {company && usage && (
        <dl class="card facts">
          <dt>{t.company.licence}</dt>
          <dd>{company.license.license_type}</dd>
          <dt>{t.company.expires}</dt>
          <dd>{expiry(company.license.expiration)}</dd>
          <dt>{t.company.questions}</dt>
          <dd>
            <meter max={usage.questions_max} value={usage.questions_used} aria-label={t.company.questions} />{' '}
            {usage.questions_used} / {usage.questions_max}
          </dd>
          <dt>{t.company.storage}</dt>
          <dd>
            <meter
              max={usage.knowledge_base_size_max_bytes}
              value={usage.knowledge_base_size_bytes}
              aria-label={t.company.storage}
            />{' '}
            {mib(usage.knowledge_base_size_bytes)} / {mib(usage.knowledge_base_size_max_bytes)}
          </dd>
          <dt>{t.company.documents}</dt>
          <dd>
            {Object.entries(usage.documents)
              .map(([state, count]) => `${t.states[state] ?? state}: ${count}`)
              .join(' · ')}
          </dd>
        </dl>
      )}
    </section>
  )
}
