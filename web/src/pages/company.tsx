import { useEffect, useState } from 'preact/hooks'
import { Problem } from '../components/problem'
import { useWorkspace } from '../context'
import { t } from '../strings'

interface Company {
  name: string
  license: { license_type: string; expiration: string; questions_max: string; knowledge_base_size_max: string }
}

interface Usage {
  questions_used: number
  questions_max: number
  knowledge_base_size_bytes: number
  knowledge_base_size_max_bytes: number
  documents: Record<string, number>
}

const mib = (n: number) => `${(n / 1024 ** 2).toFixed(1)} MiB`

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
          <dd>{company.license.expiration}</dd>
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
