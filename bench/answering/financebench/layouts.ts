import { seededShuffle } from '../../support/random.js'

/**
 * How the PDFs are named in a knowledge base: `opaque` puts every PDF into `/filings/` as
 * `filing-NNN.pdf` (NNN from a seeded shuffle), so nothing in a name or path says the company or
 * the year; `folders` gives each company a folder named after it, with the upstream file names.
 */
export type Layout = 'opaque' | 'folders'

export const LAYOUTS: readonly Layout[] = ['opaque', 'folders']

/** Seed of the opaque numbering (printed with every run; changing it renames every filing). */
export const OPAQUE_SEED = 20

/** Knowledge bases of the abstention run: each lacks the filings of one group of companies. */
export const ABSTENTION_GROUPS = 4

/** The object name of every PDF (by `doc_name`) of `companyOf` in `layout`. */
export function objectNames(layout: Layout, companyOf: ReadonlyMap<string, string>): Map<string, string> {
  const docNames = [...companyOf.keys()].sort()
  if (layout === 'opaque') {
    const width = Math.max(3, String(docNames.length).length)
    return new Map(
      seededShuffle(docNames, OPAQUE_SEED).map((docName, i) => [
        docName,
        `/filings/filing-${String(i + 1).padStart(width, '0')}.pdf`,
      ]),
    )
  }
  return new Map(
    docNames.map((docName) => {
      const company = companyOf.get(docName) as string
      if (company.includes('/')) throw new Error(`company "${company}" cannot name a folder`)
      return [docName, `/${company}/${docName}.pdf`]
    }),
  )
}

/** The companies in `groups` groups, assigned round-robin in sorted order. */
export function abstentionGroups(companies: Iterable<string>, groups: number): string[][] {
  const out: string[][] = Array.from({ length: groups }, () => [])
  for (const [i, company] of [...new Set(companies)].sort().entries()) out[i % groups]?.push(company)
  return out.filter((group) => group.length > 0)
}

/** One knowledge base (a tenant company of the service) that a run asks its questions of. */
export interface KnowledgeBasePlan {
  /** `opaque`, `folders`, `abstention-1`…: names the tenant in the manifest. */
  readonly key: string
  readonly layout: Layout
  /** Companies whose filings are left out (abstention), sorted. */
  readonly excludedCompanies: readonly string[]
  /** The PDFs it holds, by `doc_name`, in upload order. */
  readonly documents: readonly string[]
  /** Object name of each PDF it holds. */
  readonly objectNames: ReadonlyMap<string, string>
}

/** The knowledge base of `layout` with the PDFs `documents`, uploaded in the order of their names. */
export function layoutPlan(
  key: string,
  layout: Layout,
  documents: readonly string[],
  companyOf: ReadonlyMap<string, string>,
  excludedCompanies: readonly string[] = [],
): KnowledgeBasePlan {
  const names = objectNames(layout, companyOf)
  const excluded = new Set(excludedCompanies)
  const held = documents
    .filter((docName) => !excluded.has(companyOf.get(docName) as string))
    .sort((a, b) => (names.get(a) as string).localeCompare(names.get(b) as string))
  return { key, layout, excludedCompanies: [...excluded].sort(), documents: held, objectNames: names }
}
