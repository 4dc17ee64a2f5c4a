/** The caller of an authenticated request: one API client of one company. */
export interface Principal {
  readonly companyId: string
  /** Row id of the API client. */
  readonly apiClientId: string
  /** The public client id; it is what chat `members` hold. */
  readonly clientId: string
}
