import { type Kysely, sql } from "kysely";

/**
 * Tag and AI-label filters choose their plan from the planner's estimate (listing-service.ts): a
 * tag it expects on few assets is found through the GIN index first. With the default statistics
 * (a 30,000-row sample) a tag on 100 of 1,000,000 assets was seen by some ANALYZE runs and not by
 * others, and when unseen the estimate fell to a default of 0.5% (5,002): the listing then walked the
 * upload-date index through every asset, 90 ms instead of 5 ms. A larger sample for these two array
 * columns (90,000 rows) sees such tags and estimates them near their count (156 for 100), and a
 * tag that appears nowhere near zero (78). ANALYZE of a million assets takes ~4.5 s instead of ~1.3 s.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE assets ALTER COLUMN tag_names SET STATISTICS 300`.execute(db);
  await sql`ALTER TABLE assets ALTER COLUMN ai_labels SET STATISTICS 300`.execute(db);
  await sql`ANALYZE assets`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE assets ALTER COLUMN tag_names SET STATISTICS -1`.execute(db);
  await sql`ALTER TABLE assets ALTER COLUMN ai_labels SET STATISTICS -1`.execute(db);
}
