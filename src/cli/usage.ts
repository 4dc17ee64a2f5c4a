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

Uses the same environment as the server (LANTERN_DATA_DIR, LANTERN_DATABASE_URL).`
