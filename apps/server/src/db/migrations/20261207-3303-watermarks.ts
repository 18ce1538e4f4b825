import { type Kysely, sql } from "kysely";

/**
 * Watermarks on share-link visitors' pictures (issue 33; docs/architecture.md "Watermarks").
 *
 * - `share_links.watermark`: the link's watermark settings (null: none) and `watermark_hash`, a digest of
 *   them (and of the logo they use): every watermarked URL and cache key names the hash, so a change of
 *   settings makes new URLs and new renditions at once, and the old ones are refused and purged.
 * - `watermark_renditions`: every watermarked rendition made (its blob key), for the purge, the bound
 *   on per-visitor copies and a video's progress while it is being burned in. Written by the server
 *   only (not audited: the link's settings are). No foreign key: a deleted link's rows are what the
 *   purge finds to delete with their blobs.
 * - The audit trigger of `share_links` also records a watermark change.
 */
const SHARE_COLUMNS = [
  "allow_commenting",
  "show_comments",
  "show_custom_fields",
  "allow_editing_custom_fields",
  "allow_downloads",
  "show_versions",
  "is_active",
  "expires_at",
  "password_version",
];

const trigger = (columns: string[]) => {
  const args = ["share_link", ...columns].map((c) => `'${c}'`).join(", ");
  const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(" OR ");
  return `CREATE TRIGGER audit_update AFTER UPDATE ON share_links
    FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION audit_row(${args})`;
};

// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE share_links ADD COLUMN watermark jsonb, ADD COLUMN watermark_hash text`.execute(db);
  await sql`
    CREATE TABLE watermark_renditions (
      key text PRIMARY KEY,
      link_id uuid NOT NULL,
      hash text NOT NULL,
      status text NOT NULL DEFAULT 'ready' CHECK (status IN ('preparing', 'ready', 'failed')),
      progress integer NOT NULL DEFAULT 0,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX watermark_renditions_link ON watermark_renditions (link_id, hash)`.execute(db);
  await sql`DROP TRIGGER audit_update ON share_links`.execute(db);
  await sql.raw(trigger([...SHARE_COLUMNS, "watermark"])).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER audit_update ON share_links`.execute(db);
  await sql.raw(trigger(SHARE_COLUMNS)).execute(db);
  await sql`DROP TABLE watermark_renditions`.execute(db);
  await sql`ALTER TABLE share_links DROP COLUMN watermark, DROP COLUMN watermark_hash`.execute(db);
}
