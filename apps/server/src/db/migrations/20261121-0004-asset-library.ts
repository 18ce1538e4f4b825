import { type Kysely, sql } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  // A favourite belongs to the member who set it: an asset's `favorite` is the caller's own.
  await sql`
    CREATE TABLE asset_favorites (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, asset_id)
    )`.execute(db);
  await sql`CREATE INDEX asset_favorites_asset_idx ON asset_favorites (asset_id)`.execute(db);
  // Kept per part so a one-part upload is moved into place, not copied and hashed again.
  await sql`ALTER TABLE upload_parts ADD COLUMN sha256 text`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("asset_favorites").ifExists().execute();
  await sql`ALTER TABLE upload_parts DROP COLUMN IF EXISTS sha256`.execute(db);
}
