import type { Clock, Timestamp } from '../../lib/clock.js'
import { errors } from '../../lib/errors.js'
import type { CompanyRecord } from '../../storage/ports/companies.js'

/** Licence defaults of a new company. */
export const LICENCE_DEFAULTS = {
  licenseType: 'BASIC',
  kbMaxBytes: 10 * 1024 ** 3,
  questionsMax: 10_000,
  /** No expiry unless one is given. */
  expiration: '9999-12-31T23:59:59.999999' as Timestamp,
} as const

export function isLicenceExpired(company: CompanyRecord, clock: Clock): boolean {
  return company.licenseExpiration <= clock.now()
}

/** Writes that add data (uploads, questions) stop at expiry; reads never do. */
export function assertLicenceActive(company: CompanyRecord, clock: Clock): void {
  if (isLicenceExpired(company, clock)) throw errors.licenseExpired()
}
