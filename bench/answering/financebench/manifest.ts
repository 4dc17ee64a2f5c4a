import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CompanyCredentials } from '../../support/admin.js'
import type { Layout } from './layouts.js'

/** The manifest's file name in the service's data folder. */
export const MANIFEST_FILE = 'bench-answers.json'

/** A PDF as uploaded: its document id and object name. */
export interface ManifestDocument {
  readonly id: string
  readonly objectName: string
}

/** One tenant company of the service and what the benchmark put into it. */
export interface ManifestTenant {
  readonly key: string
  readonly layout: Layout
  readonly excludedCompanies: readonly string[]
  readonly credentials: CompanyCredentials
  /** Uploaded PDFs by `doc_name`. */
  readonly documents: Record<string, ManifestDocument>
  /** The bot with `auto_document_selector: "always"`, once created. */
  selectionBotId?: string
}

/**
 * What a data folder kept by `--keep` holds, so that `--reuse` can ask again without uploading:
 * the tenants, their credentials and the id of every uploaded PDF. Written after every change, so
 * that an interrupted run can be resumed.
 */
export interface Manifest {
  readonly version: 1
  /** Commit and date of the run that created the folder (its ingestion code). */
  readonly created: string
  readonly opaqueSeed: number
  /** Ingestion settings of the first run (a reused folder keeps its chunks). */
  readonly ingestion: { readonly pdfText: string; readonly loader: string }
  readonly tenants: Record<string, ManifestTenant>
}

/** The manifest of `dataDir`, or undefined when the folder has none. */
export function readManifest(dataDir: string): Manifest | undefined {
  const path = join(dataDir, MANIFEST_FILE)
  if (!existsSync(path)) return undefined
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest
  if (manifest.version !== 1) throw new Error(`${path}: unknown manifest version ${manifest.version}`)
  return manifest
}

export function writeManifest(dataDir: string, manifest: Manifest): void {
  writeFileSync(join(dataDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
}
