import { type Kysely, sql } from "kysely";

/**
 * What each share link was used for (issue 17 "Activity"): one counter row per link and kind (opens,
 * assets viewed, downloads, comments, field edits) with the last time, upserted by the public side.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE share_link_activity (
      link_id uuid NOT NULL REFERENCES share_links(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('open', 'view', 'download', 'comment', 'field_edit')),
      count bigint NOT NULL DEFAULT 0,
      last_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (link_id, kind)
    )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS share_link_activity`.execute(db);
}
