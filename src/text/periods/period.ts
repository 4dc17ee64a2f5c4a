/** A span of time, both ends included; dates are ISO `YYYY-MM-DD`. */
export interface Period {
  readonly start: string
  readonly end: string
  /** The fiscal year it belongs to when the text says so (`fiscal 2023`, `FY2023`, an annual report's year). */
  readonly fiscalYear?: number
  /** The fiscal quarter (1–4) when the text says so (`third quarter of fiscal 2023`). */
  readonly fiscalQuarter?: number
}
