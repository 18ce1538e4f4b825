import { type Kysely, sql } from "kysely";

/**
 * Change notifications for the API's read cache (platform/read-cache.ts): every change to a row that
 * a cached answer is made of sends `NOTIFY hangar_cache, '<key>'` at commit, whoever makes it (an API
 * process, a worker, a job, hand-written SQL). Keys: "w:<workspace>" for a workspace's memberships,
 * boards, tags and assets (with their tags, AI tags, boards and favourites); "u:<user>" for a user
 * and their sessions; "*" when a table is truncated. Identical notifications in one transaction are
 * delivered once, so a bulk change of one workspace costs one message.
 */
const CHANNEL = "hangar_cache";

// Tables with a workspace_id column, and the key it gives.
const BY_WORKSPACE = ["assets", "boards", "tags", "ai_tags", "memberships"];
// Tables keyed by an asset: their workspace is the asset's.
const BY_ASSET = ["asset_tags", "board_assets", "asset_favorites"];
const BY_USER = ["sessions"];
const ALL = [...BY_WORKSPACE, ...BY_ASSET, ...BY_USER, "workspaces", "users"];

// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`
    CREATE FUNCTION hangar_cache_by_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('${CHANNEL}', 'w:' || OLD.workspace_id); END IF;
      IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('${CHANNEL}', 'w:' || NEW.workspace_id); END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION hangar_cache_by_asset() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE ws uuid;
    BEGIN
      SELECT a.workspace_id INTO ws FROM assets a
       WHERE a.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.asset_id ELSE NEW.asset_id END;
      -- No asset: it is being deleted, and its own row's trigger has already sent the key.
      IF ws IS NOT NULL THEN PERFORM pg_notify('${CHANNEL}', 'w:' || ws); END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION hangar_cache_by_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('${CHANNEL}', 'u:' || OLD.user_id); END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION hangar_cache_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${CHANNEL}', 'w:' || OLD.id);
      RETURN NULL;
    END $$;

    CREATE FUNCTION hangar_cache_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${CHANNEL}', 'u:' || OLD.id);
      RETURN NULL;
    END $$;

    CREATE FUNCTION hangar_cache_all() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${CHANNEL}', '*');
      RETURN NULL;
    END $$;
  `)
    .execute(db);

  const row = (table: string, fn: string, events: string) =>
    sql.raw(`CREATE TRIGGER ${table}_cache_notify AFTER ${events} ON ${table}
             FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  for (const t of BY_WORKSPACE) await row(t, "hangar_cache_by_workspace", "INSERT OR UPDATE OR DELETE").execute(db);
  for (const t of BY_ASSET) await row(t, "hangar_cache_by_asset", "INSERT OR UPDATE OR DELETE").execute(db);
  // A new session changes no cached answer; its end or renewal does.
  for (const t of BY_USER) await row(t, "hangar_cache_by_user", "UPDATE OR DELETE").execute(db);
  await row("workspaces", "hangar_cache_workspace", "UPDATE OR DELETE").execute(db);
  await row("users", "hangar_cache_user", "UPDATE OR DELETE").execute(db);
  for (const t of ALL) {
    await sql
      .raw(`CREATE TRIGGER ${t}_cache_truncate AFTER TRUNCATE ON ${t}
            FOR EACH STATEMENT EXECUTE FUNCTION hangar_cache_all()`)
      .execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ALL) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${t}_cache_notify ON ${t}`).execute(db);
    await sql.raw(`DROP TRIGGER IF EXISTS ${t}_cache_truncate ON ${t}`).execute(db);
  }
  for (const fn of ["by_workspace", "by_asset", "by_user", "workspace", "user", "all"]) {
    await sql.raw(`DROP FUNCTION IF EXISTS hangar_cache_${fn}()`).execute(db);
  }
}
