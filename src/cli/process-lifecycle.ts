import type { Logger } from 'pino'
import type { Config } from '../config.js'
import type { IngestSettings } from '../ingestion/jobs/settings.js'
import { openDatabase } from '../storage/database.js'
import { pendingMigrations } from '../storage/migrate.js'

/** Refuses to start a PostgreSQL process on a schema that `lantern admin migrate` has not brought up to date. */
export async function assertMigrated(config: Config): Promise<void> {
  const handle = openDatabase(config)
  try {
    const pending = await pendingMigrations(handle.db, handle.dialect)
    if (pending.length > 0) {
      throw new Error(`the database needs migrations (${pending.join(', ')}): run "lantern admin migrate" first`)
    }
  } finally {
    await handle.close()
  }
}

/**
 * Says where this process's ingestion workers read PDF text from (callers run some). Without mupdf-tools (`auto` falling back
 * to pdf.js) PDFs take about 2.4 times as long (docs/benchmarks.md), which an administrator would
 * otherwise learn only from slow uploads.
 */
export function logPdfTextReader(logger: Logger, config: Config, ingestion: IngestSettings): void {
  if (ingestion.mutool) logger.info({ pdfText: 'mutool' }, 'PDF text is read with MuPDF (mutool)')
  else if (config.pdfText === 'pdfjs')
    logger.info({ pdfText: 'pdf.js' }, 'PDF text is read with pdf.js (LANTERN_PDF_TEXT=pdfjs)')
  else
    logger.info(
      { pdfText: 'pdf.js' },
      'PDF text is read with pdf.js: no mutool (mupdf-tools 1.19 or later) was found; with it PDFs are processed about 2.4 times faster',
    )
  if (ingestion.soffice)
    logger.info({ legacyOffice: 'soffice' }, 'legacy Office files (.xls, .xlsb, .ppt) are read through LibreOffice')
  else
    logger.info(
      { legacyOffice: null },
      'no LibreOffice (soffice) was found: .xls, .xlsb and .ppt files will end in ERROR naming the package to install',
    )
}

/**
 * Runs `stop` once on the first SIGTERM or SIGINT, and exits with status 1 if it has not finished
 * `forceAfterMs` later (a stuck shutdown must not keep the process alive).
 */
export function stopOnSignals(
  logger: Logger,
  forceAfterMs: number,
  stop: (signal: string) => Promise<void>,
): { readonly stopping: () => boolean } {
  let stopping = false
  const onSignal = (signal: string) => {
    if (stopping) return
    stopping = true
    const force = setTimeout(() => {
      logger.error('shutdown grace period over; exiting')
      process.exit(1)
    }, forceAfterMs)
    force.unref()
    stop(signal).catch((error: unknown) => {
      logger.error({ err: error }, 'shutdown failed')
      process.exitCode = 1
    })
  }
  process.once('SIGTERM', () => onSignal('SIGTERM'))
  process.once('SIGINT', () => onSignal('SIGINT'))
  return { stopping: () => stopping }
}
