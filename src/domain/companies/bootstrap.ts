import type { ClientCredentials, CompanyService } from './companies.js'

/**
 * On an empty store, creates company "Default" with its default bot and one API client, and
 * returns the credentials (the only time the secret exists in plain text). Returns undefined when
 * any company exists already.
 */
export async function bootstrapFirstCompany(
  companies: CompanyService,
  isEmpty: () => Promise<boolean>,
): Promise<ClientCredentials | undefined> {
  if (!(await isEmpty())) return undefined
  const { credentials } = await companies.create({ name: 'Default' })
  return credentials
}
