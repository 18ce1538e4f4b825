import { type Kysely, sql } from "kysely";

/**
 * Versions on share links (issue 29): `show_versions` lets a link's visitors list the asset's
 * versions, switch between them and read each version's comments. Off for every link, existing ones
 * included: a link shows what it showed before (the current version) until someone turns it on.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE share_links ADD COLUMN show_versions boolean NOT NULL DEFAULT false`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE share_links DROP COLUMN IF EXISTS show_versions`.execute(db);
}
