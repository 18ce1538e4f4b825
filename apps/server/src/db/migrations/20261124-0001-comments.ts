import { type Kysely, sql } from "kysely";

/**
 * Comments and annotations (docs/architecture.md §9, spec 02 §3 Comment). A comment belongs to an asset; a reply
 * names its parent and the thread's root (`thread_id`, the root's own id for a top-level comment), so
 * a thread lists flat under its root with one index range. Coordinates are percent of the image or
 * page; `timestamp_s`/`duration_s` place a video remark. Visitors of a share link write with a name and
 * e-mail of their own and the link's id (issue 17 adds the links).
 *
 * Notifications:
 * - the read cache (migration 0009): a comment change sends "w:<workspace>", since the asset answer
 *   carries its open-thread count;
 * - live events (`hangar_events`, platform/live-events.ts): every insert, edit, delete and resolve of a
 *   comment, and every status change of an asset, as a small JSON message with ids only. Triggers
 *   send them at commit, whichever process writes, so any API process can tell its viewers.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE comments (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      parent_id uuid REFERENCES comments(id) ON DELETE CASCADE,
      thread_id uuid NOT NULL REFERENCES comments(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
      board_id uuid REFERENCES boards(id) ON DELETE SET NULL,
      author_id uuid REFERENCES users(id) ON DELETE SET NULL,
      author_name text,
      author_email text,
      share_link_id uuid,
      text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 10000),
      severity text NOT NULL DEFAULT 'none' CHECK (severity IN ('high', 'medium', 'low', 'positive', 'none')),
      annotation_type text NOT NULL DEFAULT 'NONE' CHECK (annotation_type IN ('NONE', 'POINT', 'AREA')),
      x real CHECK (x BETWEEN 0 AND 100),
      y real CHECK (y BETWEEN 0 AND 100),
      width real CHECK (width > 0 AND width <= 100),
      height real CHECK (height > 0 AND height <= 100),
      page integer CHECK (page >= 1),
      timestamp_s double precision CHECK (timestamp_s >= 0),
      duration_s double precision CHECK (duration_s > 0),
      resolved_at timestamptz,
      resolved_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((parent_id IS NULL) = (thread_id = id))
    )`.execute(db);
  // Top-level comments of an asset in order; a thread's replies in order; open threads per asset.
  await sql`CREATE INDEX comments_top ON comments (asset_id, created_at, id) WHERE parent_id IS NULL`.execute(db);
  await sql`CREATE INDEX comments_replies ON comments (thread_id, created_at, id) WHERE parent_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX comments_open ON comments (asset_id) WHERE parent_id IS NULL AND resolved_at IS NULL`.execute(
    db,
  );
  await sql`CREATE INDEX comments_parent ON comments (parent_id) WHERE parent_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX comments_workspace ON comments (workspace_id)`.execute(db);
  await sql`
    CREATE TABLE comment_mentions (
      comment_id uuid NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      PRIMARY KEY (comment_id, user_id)
    )`.execute(db);
  await sql`CREATE INDEX comment_mentions_user ON comment_mentions (user_id)`.execute(db);

  await sql`
    CREATE TRIGGER comments_cache AFTER INSERT OR UPDATE OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION hangar_cache_by_workspace()`.execute(db);
  await sql`
    CREATE TRIGGER comments_cache_truncate AFTER TRUNCATE ON comments
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_cache_all()`.execute(db);

  await sql
    .raw(`
    CREATE FUNCTION hangar_events_comment() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE r comments; kind text;
    BEGIN
      IF TG_OP = 'DELETE' THEN r := OLD; kind := 'comment.deleted';
      ELSIF TG_OP = 'INSERT' THEN r := NEW; kind := 'comment.created';
      ELSIF NEW.resolved_at IS DISTINCT FROM OLD.resolved_at THEN r := NEW; kind := 'comment.resolved';
      ELSE r := NEW; kind := 'comment.updated';
      END IF;
      PERFORM pg_notify('hangar_events', json_build_object(
        'ws', r.workspace_id, 'type', kind, 'asset_id', r.asset_id, 'comment_id', r.id,
        'thread_id', r.thread_id, 'parent_id', r.parent_id)::text);
      RETURN NULL;
    END $$;

    CREATE TRIGGER comments_events AFTER INSERT OR UPDATE OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION hangar_events_comment();

    CREATE FUNCTION hangar_events_asset_status() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('hangar_events', json_build_object(
        'ws', NEW.workspace_id, 'type', 'asset.status', 'asset_id', NEW.id, 'status', NEW.status)::text);
      RETURN NULL;
    END $$;

    CREATE TRIGGER assets_status_events AFTER UPDATE OF status ON assets
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION hangar_events_asset_status();
  `)
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS assets_status_events ON assets`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_events_asset_status()`.execute(db);
  await sql`DROP TABLE IF EXISTS comment_mentions`.execute(db);
  await sql`DROP TABLE IF EXISTS comments`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_events_comment()`.execute(db);
}
