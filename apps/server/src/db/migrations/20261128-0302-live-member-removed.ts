import { type Kysely, sql } from "kysely";

/**
 * A membership's end is announced on `hangar_events` at commit (issue 27), so every API process
 * ends that member's live streams of the workspace at once (platform/live-events.ts), not at the
 * stream's next heartbeat. A deleted workspace ends its members' streams the same way (the cascade).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`
    CREATE FUNCTION hangar_events_member_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('hangar_events', json_build_object(
        'ws', OLD.workspace_id, 'type', 'member.removed', 'user_id', OLD.user_id)::text);
      RETURN NULL;
    END $$;

    CREATE TRIGGER memberships_removed_events AFTER DELETE ON memberships
    FOR EACH ROW EXECUTE FUNCTION hangar_events_member_removed();
  `)
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS memberships_removed_events ON memberships`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_events_member_removed()`.execute(db);
}
