import { type Kysely, sql } from "kysely";

/**
 * A version that is not its asset's current one settling (issue 29): COMPLETED without becoming
 * current, or failed in processing. The asset row's version columns do not change then (a failed
 * newer version stays the one "on its way"), so assets_version_events says nothing, and the viewers'
 * version menus never heard of it. This announces `asset.version` with the version and its status.
 *
 * Deferred to the commit: by then the version may have become current (a newer version that
 * completes is promoted in the same transaction), and the asset's own events speak for it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION hangar_events_version_status() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE a record;
    BEGIN
      SELECT id, workspace_id, coalesce(current_version_id, id) AS current_id, version_count
        INTO a FROM assets WHERE id = NEW.asset_id;
      IF a.id IS NULL OR a.current_id = NEW.id THEN RETURN NULL; END IF;
      -- The status as of the commit (a later update in the same transaction may have changed it again).
      PERFORM pg_notify('hangar_events', json_build_object(
        'ws', a.workspace_id, 'type', 'asset.version', 'asset_id', a.id,
        'current_version_id', a.current_id, 'version_count', a.version_count,
        'version_id', NEW.id, 'status', (SELECT status FROM asset_versions WHERE id = NEW.id))::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE CONSTRAINT TRIGGER asset_versions_status_events
    AFTER UPDATE OF status ON asset_versions DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('COMPLETED', 'error'))
    EXECUTE FUNCTION hangar_events_version_status()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS asset_versions_status_events ON asset_versions`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_events_version_status()`.execute(db);
}
