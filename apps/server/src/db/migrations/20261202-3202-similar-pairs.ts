import { type Kysely, sql } from "kysely";

/**
 * Near-duplicate pairs (issue 32; docs/architecture.md §6.1): when a version's main picture (frame 0)
 * is hashed, its neighbours within 11 bits (the contract's SIMILAR_DISTANCE_MAX) are found through the
 * band index and kept here, once per pair (version_a < version_b). The duplicates page then reads the
 * pairs within the workspace's distance (an index range) instead of comparing every hash of the
 * workspace on each request. Versions, not assets: only pairs of two current versions of live assets
 * count, checked when read. Purged versions take their pairs with them.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE asset_hash_pairs (
      workspace_id uuid NOT NULL,
      version_a uuid NOT NULL REFERENCES asset_versions(id) ON DELETE CASCADE,
      version_b uuid NOT NULL REFERENCES asset_versions(id) ON DELETE CASCADE,
      distance smallint NOT NULL,
      PRIMARY KEY (version_a, version_b),
      CHECK (version_a < version_b)
    )`.execute(db);
  await sql`CREATE INDEX asset_hash_pairs_workspace ON asset_hash_pairs (workspace_id, distance)`.execute(db);
  await sql`CREATE INDEX asset_hash_pairs_b ON asset_hash_pairs (version_b)`.execute(db);
  // asset_hashes came one migration earlier, in the same release: no hash exists without its pairs.
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS asset_hash_pairs`.execute(db);
}
