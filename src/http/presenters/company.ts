import type { CompanyUsage } from '../../domain/companies/companies.js'
import { formatByteSize } from '../../lib/sizes.js'
import type { CompanyRecord } from '../../storage/ports/companies.js'

/** Company object of spec 2.2. */
export function presentCompany(company: CompanyRecord) {
  return {
    idp_id: company.idpId,
    id: company.id,
    id_bot_default: company.defaultBotId,
    name: company.name,
    create_at: company.createdAt,
    update_at: company.updatedAt,
    license: {
      expiration: company.licenseExpiration,
      license_type: company.licenseType,
      knowledge_base_size_max: formatByteSize(company.kbMaxBytes),
      questions_max: String(company.questionsMax),
    },
  }
}

export function presentUsage(usage: CompanyUsage) {
  return {
    questions_used: usage.questionsUsed,
    questions_max: usage.questionsMax,
    knowledge_base_size_bytes: usage.storedBytes,
    knowledge_base_size_max_bytes: usage.kbMaxBytes,
    documents: usage.documents,
    license_expired: usage.licenseExpired,
  }
}
