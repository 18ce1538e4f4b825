import { type Kysely, sql } from "kysely";

/**
 * Usage rights (issue 33; docs/architecture.md §9): one row per asset that has any, keyed by the
 * asset's id (the audit log names the asset), in a table of its own so the assets row, its triggers
 * and its audit columns stay as they are. `expire_at` is a point in time: nothing flips when it
 * passes, every visitor-facing read compares it with now. Indexed by workspace for the listing's
 * "expires within N days" / "expired" filters and the daily mail; a change voids the read cache
 * through the workspace's key (what a link sees depends on it) and is audited.
 *
 * `rights_notices` remembers which mail went for which asset and expiry date (once each; a new date
 * notifies again).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE asset_rights (
      id uuid PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      license text CHECK (license IN ('owned', 'licensed', 'royalty_free', 'editorial', 'creative_commons')),
      cc_variant text CHECK (cc_variant IS NULL OR license = 'creative_commons'),
      credit text NOT NULL DEFAULT '',
      source text NOT NULL DEFAULT '',
      usage_notes text NOT NULL DEFAULT '',
      territories text[] NOT NULL DEFAULT '{}',
      model_release boolean NOT NULL DEFAULT false,
      property_release boolean NOT NULL DEFAULT false,
      expire_at timestamptz,
      updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX asset_rights_expiry ON asset_rights (workspace_id, expire_at) WHERE expire_at IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX asset_rights_license ON asset_rights (workspace_id, license) WHERE license IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX asset_rights_released ON asset_rights (workspace_id)
    WHERE model_release OR property_release`.execute(db);
  await sql`
    CREATE TRIGGER asset_rights_cache_notify AFTER INSERT OR UPDATE OR DELETE ON asset_rights
    FOR EACH ROW EXECUTE FUNCTION hangar_cache_by_workspace()`.execute(db);
  await sql`
    CREATE TRIGGER asset_rights_cache_truncate AFTER TRUNCATE ON asset_rights
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_cache_all()`.execute(db);
  const columns = [
    "license",
    "cc_variant",
    "credit",
    "source",
    "usage_notes",
    "territories",
    "model_release",
    "property_release",
    "expire_at",
  ];
  const args = ["rights", ...columns].map((c) => `'${c}'`).join(", ");
  const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(" OR ");
  await sql
    .raw(`CREATE TRIGGER audit_insert_delete AFTER INSERT OR DELETE ON asset_rights
    FOR EACH ROW EXECUTE FUNCTION audit_row(${args})`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER audit_update AFTER UPDATE ON asset_rights
    FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION audit_row(${args})`)
    .execute(db);

  await sql`
    CREATE TABLE rights_notices (
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      expire_at timestamptz NOT NULL,
      kind text NOT NULL CHECK (kind IN ('expiring', 'expired')),
      sent_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (asset_id, expire_at, kind)
    )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS rights_notices`.execute(db);
  await sql`DROP TABLE IF EXISTS asset_rights`.execute(db);
}
