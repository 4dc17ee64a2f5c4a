import { inject } from 'vitest'

export type StoreMode = 'sqlite' | 'postgres'

/** The stores every contract test runs on: SQLite always, PostgreSQL when the run has one. */
export function storeModes(): StoreMode[] {
  return inject('pgUrl') ? ['sqlite', 'postgres'] : ['sqlite']
}

export function pgUrl(): string {
  return inject('pgUrl')
}
