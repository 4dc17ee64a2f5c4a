import type { TokenService } from './auth/tokens.js'
import type { CompanyService } from './companies/companies.js'

/** Every domain service, built once in the composition root (src/app-context.ts). */
export interface Services {
  readonly tokens: TokenService
  readonly companies: CompanyService
}
