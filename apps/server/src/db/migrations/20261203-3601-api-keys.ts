import { type Kysely, sql } from "kysely";

/**
 * Workspace API keys (issue 36; docs/architecture.md §4.4). The secret is kept only as its SHA-256
 * (`secret_hash`, unique: the one lookup a request makes); `prefix` is its first characters, shown in
 * lists. A key acts for the workspace with the rights of its scopes; `created_by` is the member who
 * made it, named as the author of what the key writes. Keys are revoked (`revoked_at`), never deleted
 * through the API.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      prefix text NOT NULL,
      secret_hash text NOT NULL UNIQUE,
      scopes text[] NOT NULL CHECK (cardinality(scopes) > 0),
      created_by uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      expires_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX api_keys_workspace ON api_keys (workspace_id, created_at)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS api_keys`.execute(db);
}
