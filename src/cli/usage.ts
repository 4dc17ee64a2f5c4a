/** Help text of `lantern admin`, kept apart so `lantern --help` loads nothing else. */
export const ADMIN_USAGE = `lantern admin <command>

  migrate                                   apply pending database migrations
  company create --name N [--app-name A] [--idp-id I] [--license-type T] [--kb-max 10GB]
                 [--questions-max N] [--expires YYYY-MM-DD] [--json]
  company list [--json]
  company update --id ID [--name N] [--idp-id I] [--license-type T] [--kb-max 10GB]
                 [--questions-max N] [--expires YYYY-MM-DD] [--json]
  client create --company ID [--app-name A] [--json]
  client list --company ID [--json]
  client rotate --client-id C [--json]      new secret; tokens of the old one die at once
  client disable --client-id C [--json]     the client and its tokens stop working
  documents reprocess --company ID [--json] process every document again (after an upgrade:
                                            cards, tables, terms); each stays searchable until
                                            a worker takes it

Uses the same environment as the server (LANTERN_DATA_DIR, LANTERN_DATABASE_URL).`

/** Help text of `lantern ingest`. */
export const INGEST_USAGE = `lantern ingest <dir> [--path /folder] [--tags a,b] [--overwrite] [--no-wait] [--timeout 3600]
               [--concurrency 4] [--url http://127.0.0.1:8080] [--credentials FILE] [--json]

  Uploads every file under <dir> (dot files and symbolic links skipped) through the HTTP API into
  the folder --path (default /), mirroring sub-directories, then waits until each document is
  processed. Files already in their folder are skipped unless --overwrite, so a run can be resumed.
  --tags: tag names, created when missing. Credentials: --credentials FILE, else LANTERN_CLIENT_ID
  and LANTERN_CLIENT_SECRET (and LANTERN_APP_NAME), else $LANTERN_DATA_DIR/credentials.json.
  Exit code 0 when every file was skipped or processed, 8 when some failed (listed at the end).`
