import { type Kysely, sql } from "kysely";

/**
 * Single sign-on through OpenID Connect (issue 36; docs/architecture.md, "Single sign-on").
 * - `sso_logins`: one sign-in in flight, keyed by the SHA-256 of a random value kept in an HttpOnly
 *   cookie of the browser that started it, with its state, nonce and PKCE verifier. The callback
 *   takes it once (`used_at`), so a replayed callback finds nothing; rows live minutes.
 * - `sessions.sso`: the session came from the provider (a workspace requiring SSO checks it).
 * - `users.sso_subject`: the provider's `iss#sub` once the account signed in through it, so a later
 *   sign-in finds the account even after its e-mail address changed at the provider.
 * - `workspaces.require_sso`: members must have signed in through the provider; recorded in the
 *   audit log like the workspace's other settings (its update trigger is made again with the column).
 */
const WORKSPACE_COLUMNS = ["name", "deleted_at", "audit_retention_days", "require_sso"];

async function workspaceAuditTrigger(db: Kysely<unknown>, columns: string[]) {
  const args = ["workspace", ...columns].map((c) => `'${c}'`).join(", ");
  const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(" OR ");
  await sql`DROP TRIGGER IF EXISTS audit_update ON workspaces`.execute(db);
  await sql
    .raw(`CREATE TRIGGER audit_update AFTER UPDATE ON workspaces
      FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION audit_row(${args})`)
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE sso_logins (
      id text PRIMARY KEY,
      state text NOT NULL,
      nonce text NOT NULL,
      code_verifier text NOT NULL,
      next_path text NOT NULL DEFAULT '/',
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX sso_logins_expires ON sso_logins (expires_at)`.execute(db);
  await sql`ALTER TABLE sessions ADD COLUMN sso boolean NOT NULL DEFAULT false`.execute(db);
  await sql`ALTER TABLE users ADD COLUMN sso_subject text UNIQUE`.execute(db);
  await sql`ALTER TABLE workspaces ADD COLUMN require_sso boolean NOT NULL DEFAULT false`.execute(db);
  await workspaceAuditTrigger(db, WORKSPACE_COLUMNS);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await workspaceAuditTrigger(db, WORKSPACE_COLUMNS.slice(0, -1));
  await sql`ALTER TABLE workspaces DROP COLUMN IF EXISTS require_sso`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS sso_subject`.execute(db);
  await sql`ALTER TABLE sessions DROP COLUMN IF EXISTS sso`.execute(db);
  await sql`DROP TABLE IF EXISTS sso_logins`.execute(db);
}
