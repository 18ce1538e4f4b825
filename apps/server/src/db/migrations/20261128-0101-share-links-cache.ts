import { type Kysely, sql } from "kysely";

/**
 * Share links join the read cache (issue 27): a link is resolved once per request from the cache, as
 * sessions are, so each change to a link (disabled, a new password, new flags, deleted) must void what
 * was cached of it at once. A change sends its workspace's key ("w:<workspace>", migration 0009), the
 * key every cached answer about the link depends on (with its asset's and boards' changes).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TRIGGER share_links_cache_notify AFTER INSERT OR UPDATE OR DELETE ON share_links
    FOR EACH ROW EXECUTE FUNCTION hangar_cache_by_workspace()`.execute(db);
  await sql`
    CREATE TRIGGER share_links_cache_truncate AFTER TRUNCATE ON share_links
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_cache_all()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS share_links_cache_notify ON share_links`.execute(db);
  await sql`DROP TRIGGER IF EXISTS share_links_cache_truncate ON share_links`.execute(db);
}
