import { type Kysely, sql } from "kysely";

/**
 * Smart boards (issue 33; docs/architecture.md §4.6). A board is `normal` (it holds filed assets,
 * board_assets) or `smart` (it holds a saved listing filter, `filter`, and shows whatever matches it
 * now). The filter is the listing's own payload (contract SmartBoardFilter), validated by the service
 * when saved; the database only keeps the kind and the filter in step. Nothing is materialised: a
 * smart board's assets are found by the listing's own statement each time, so they are never stale.
 *
 * The audit trigger on boards (migration 20261206-3603) records updates of its named columns only;
 * it is made again here with `filter` among them, so editing a smart board's filter is recorded.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE boards
      ADD COLUMN kind text NOT NULL DEFAULT 'normal',
      ADD COLUMN filter jsonb,
      ADD CONSTRAINT boards_kind_check CHECK (kind IN ('normal', 'smart')),
      ADD CONSTRAINT boards_smart_filter CHECK ((kind = 'smart') = (filter IS NOT NULL))`.execute(db);
  await sql`DROP TRIGGER IF EXISTS audit_update ON boards`.execute(db);
  await sql`
    CREATE TRIGGER audit_update AFTER UPDATE ON boards FOR EACH ROW
    WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.parent_id IS DISTINCT FROM NEW.parent_id
      OR OLD.position IS DISTINCT FROM NEW.position OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
      OR OLD.filter IS DISTINCT FROM NEW.filter)
    EXECUTE FUNCTION audit_row('board', 'name', 'parent_id', 'position', 'deleted_at', 'filter')`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS audit_update ON boards`.execute(db);
  await sql`
    CREATE TRIGGER audit_update AFTER UPDATE ON boards FOR EACH ROW
    WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.parent_id IS DISTINCT FROM NEW.parent_id
      OR OLD.position IS DISTINCT FROM NEW.position OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
    EXECUTE FUNCTION audit_row('board', 'name', 'parent_id', 'position', 'deleted_at')`.execute(db);
  await sql`ALTER TABLE boards DROP CONSTRAINT boards_smart_filter, DROP CONSTRAINT boards_kind_check,
    DROP COLUMN filter, DROP COLUMN kind`.execute(db);
}
