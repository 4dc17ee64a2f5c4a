/** The two SQL engines Lantern runs on; differences between them are decided on this value only. */
export type Dialect = 'sqlite' | 'postgres'
