import { type Kysely, sql } from "kysely";

/**
 * The audit log (issue 36; docs/architecture.md §4.5). A row is written by a trigger in the very
 * transaction of each change to an audited table, so nothing changes unrecorded and nothing recorded
 * is undone. Who is acting comes from the connection's `hangar.audit` setting, which the pool sets
 * from the request being served (platform/audit-context.ts); with none set, the system acted.
 *
 * Each audited table names the columns worth recording (the rest — processing facts, search text,
 * secrets — is never copied): an update touching none of them records nothing (the trigger's WHEN
 * does not even fire), so the pipeline's own writes stay out of the log. Rows changed by a cascade
 * (pg_trigger_depth() > 1: a workspace purge taking its boards) are recorded by their root only.
 * Rows are append-only: updates are refused, deletes only by the retention purge
 * (`hangar.audit_purge` set in its transaction).
 */
const AUDITED: Record<string, { object: string; columns: string[]; updatesOnly?: boolean }> = {
  workspaces: { object: "workspace", columns: ["name", "deleted_at", "audit_retention_days"] },
  memberships: { object: "member", columns: ["role"] },
  invites: { object: "invite", columns: ["role", "revoked_at", "accepted_at"] },
  boards: { object: "board", columns: ["name", "parent_id", "position", "deleted_at"] },
  board_assets: { object: "board", columns: [] },
  assets: { object: "asset", columns: ["name", "description", "deleted_at", "current_version_id", "status"] },
  asset_versions: { object: "version", columns: ["deleted_at", "asset_id"] },
  asset_tags: { object: "asset", columns: [] },
  asset_favorites: { object: "asset", columns: [] },
  comments: { object: "comment", columns: ["text", "severity", "resolved_at"] },
  custom_fields: { object: "field", columns: ["title", "field_type", "position"] },
  field_options: { object: "field_option", columns: ["label", "color", "position"] },
  ai_actions: { object: "ai_action", columns: ["config"] },
  ai_action_runs: { object: "ai_action_run", columns: [] },
  share_links: {
    object: "share_link",
    columns: [
      "allow_commenting",
      "show_comments",
      "show_custom_fields",
      "allow_editing_custom_fields",
      "allow_downloads",
      "show_versions",
      "is_active",
      "expires_at",
      "password_version",
    ],
  },
  file_requests: {
    object: "file_request",
    columns: ["title", "message", "is_active", "expires_at", "password_version", "max_files", "max_file_bytes"],
  },
  file_request_uploads: { object: "file_request", columns: [] },
  reviews: { object: "review", columns: ["title", "message", "due_at", "lock_on_approval", "state", "canceled_at"] },
  review_decisions: { object: "review", columns: [] },
  review_reviewers: { object: "review", columns: ["is_active", "expires_at", "password_version", "removed_at"] },
  duplicate_dismissals: { object: "duplicates", columns: [] },
  duplicate_settings: { object: "duplicates", columns: ["max_distance"] },
  api_keys: { object: "api_key", columns: ["name", "scopes", "expires_at", "revoked_at"] },
  billing_subscriptions: {
    object: "subscription",
    columns: ["plan_key", "billing_interval", "status", "cancel_at_period_end"],
  },
  billing_checkout_sessions: { object: "subscription", columns: [] },
  users: {
    object: "account",
    columns: ["first_name", "last_name", "email", "pending_email", "email_verified_at", "password_hash"],
  },
  user_avatars: { object: "account", columns: ["updated_at"] },
  email_tokens: { object: "account", columns: ["used_at"] },
  // Issue 32's people: what members decide (names, merges, moves); faces come and go with the pipeline.
  face_settings: { object: "people", columns: ["enabled"] },
  people: { object: "person", columns: ["name", "hidden", "cover_face_id"] },
  faces: { object: "face", columns: ["person_id"], updatesOnly: true },
  webhook_endpoints: { object: "webhook", columns: ["url", "description", "events", "enabled", "secret_box"] },
};
export const AUDITED_TABLES = AUDITED;

// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE audit_events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      workspace_id uuid,
      user_id uuid,
      at timestamptz NOT NULL DEFAULT clock_timestamp(),
      actor_kind text NOT NULL,
      actor_id text,
      actor_name text,
      ip text,
      user_agent text,
      request_id text,
      action text NOT NULL,
      object_type text NOT NULL,
      object_id text,
      object_name text,
      related_id text,
      changes jsonb
    )`.execute(db);
  await sql`CREATE INDEX audit_events_workspace ON audit_events (workspace_id, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_events_object ON audit_events (workspace_id, object_id, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_events_related ON audit_events (workspace_id, related_id, id DESC)
    WHERE related_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX audit_events_user ON audit_events (user_id, id DESC) WHERE user_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX audit_events_at ON audit_events (at)`.execute(db);
  // A request's rows (its id is in the logs): what one call changed.
  await sql`CREATE INDEX audit_events_request ON audit_events (request_id) WHERE request_id IS NOT NULL`.execute(db);
  await sql`ALTER TABLE workspaces ADD COLUMN audit_retention_days integer NOT NULL DEFAULT 365
    CHECK (audit_retention_days BETWEEN 30 AND 3650)`.execute(db);

  // Append-only: no update ever; a delete only inside the retention purge's transaction.
  await sql`
    CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND current_setting('hangar.audit_purge', true) = 'on' THEN RETURN OLD; END IF;
      RAISE EXCEPTION 'audit_events rows are append-only';
    END $$`.execute(db);
  await sql`CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()`.execute(db);

  await sql.raw(AUDIT_ROW_FUNCTION).execute(db);
  await sql.raw(AUDIT_ASSETS_FUNCTION).execute(db);
  await sql
    .raw(`CREATE TRIGGER audit_insert_statement AFTER INSERT ON assets
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_assets()`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER audit_delete_statement AFTER DELETE ON assets
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_assets()`)
    .execute(db);
  // Field values are set thousands at a time (bulk edits): one set-based statement per change.
  await sql.raw(AUDIT_FIELD_VALUES_FUNCTION).execute(db);
  for (const [op, ref] of [
    ["INSERT", "NEW TABLE AS new_rows"],
    ["UPDATE", "NEW TABLE AS new_rows"],
    ["DELETE", "OLD TABLE AS old_rows"],
  ] as const)
    await sql
      .raw(`CREATE TRIGGER audit_${op.toLowerCase()}_statement AFTER ${op} ON field_values
      REFERENCING ${ref} FOR EACH STATEMENT EXECUTE FUNCTION audit_field_values()`)
      .execute(db);
  for (const [table, { object, columns, updatesOnly }] of Object.entries(AUDITED)) {
    const args = [object, ...columns].map((c) => `'${c}'`).join(", ");
    const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(" OR ");
    // Assets arrive and go thousands at a time (uploads of folders, purges): set-based, below.
    if (table !== "assets" && !updatesOnly)
      await sql
        .raw(`CREATE TRIGGER audit_insert_delete AFTER INSERT OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION audit_row(${args})`)
        .execute(db);
    if (columns.length > 0)
      await sql
        .raw(`CREATE TRIGGER audit_update AFTER UPDATE ON ${table}
        FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION audit_row(${args})`)
        .execute(db);
  }
}

/**
 * One function for every audited table: who (the connection's `hangar.audit`, or the system), which
 * object (per table: its id and its name at that moment), what happened (created/updated/deleted, or
 * a more telling verb: deleted to Recently deleted, restored, resolved, added to a board…) and the
 * named columns before and after (a secret's hash only as "changed"). Long values are cut at 500
 * characters.
 */
const AUDIT_ROW_FUNCTION = `
CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  ctx jsonb := nullif(current_setting('hangar.audit', true), '')::jsonb;
  r jsonb;
  o jsonb;
  ws uuid;
  uid uuid;
  obj text := TG_ARGV[0];
  oid text;
  oname text;
  verb text;
  ch jsonb := '{}'::jsonb;
  col text;
  i int;
  kind text;
  aname text;
  rel text;
BEGIN
  IF pg_trigger_depth() > 1 THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN r := to_jsonb(OLD); ELSE r := to_jsonb(NEW); END IF;
  IF TG_OP = 'UPDATE' THEN o := to_jsonb(OLD); END IF;
  verb := CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'DELETE' THEN 'deleted' ELSE 'updated' END;

  -- What changed: the named columns (after only when created, before only when deleted).
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    col := TG_ARGV[i];
    IF col LIKE '%hash' OR col LIKE 'secret%' THEN
      -- A secret: that it changed, never what it was or became.
      IF TG_OP = 'UPDATE' AND (o -> col) IS DISTINCT FROM (r -> col) THEN
        ch := ch || jsonb_build_object(split_part(col, '_', 1), 'changed');
      END IF;
    ELSIF TG_OP = 'UPDATE' THEN
      IF (o -> col) IS DISTINCT FROM (r -> col) THEN
        ch := ch || jsonb_build_object(col, jsonb_build_object('before', o -> col, 'after', r -> col));
      END IF;
    ELSIF r ? col AND r -> col <> 'null'::jsonb THEN
      ch := ch || jsonb_build_object(col, CASE WHEN TG_OP = 'INSERT'
        THEN jsonb_build_object('after', r -> col) ELSE jsonb_build_object('before', r -> col) END);
    END IF;
  END LOOP;

  ws := CASE WHEN r ? 'workspace_id' THEN (r ->> 'workspace_id')::uuid END;
  oid := r ->> 'id';
  oname := coalesce(r ->> 'name', r ->> 'title');
  -- The asset a row of another object concerns (a version, a comment, a filing): its history shows it.
  rel := CASE WHEN TG_TABLE_NAME <> 'assets' THEN r ->> 'asset_id' END;

  CASE TG_TABLE_NAME
    WHEN 'workspaces' THEN ws := (r ->> 'id')::uuid;
    WHEN 'memberships' THEN
      oid := r ->> 'user_id';
      SELECT coalesce(nullif(trim(first_name || ' ' || last_name), ''), email) INTO oname FROM users WHERE id = oid::uuid;
      verb := CASE TG_OP WHEN 'INSERT' THEN 'added' WHEN 'DELETE' THEN 'removed' ELSE 'role_changed' END;
    WHEN 'invites' THEN oname := r ->> 'email';
      IF TG_OP = 'UPDATE' AND (o ->> 'revoked_at') IS NULL AND (r ->> 'revoked_at') IS NOT NULL THEN verb := 'revoked';
      ELSIF TG_OP = 'UPDATE' AND (o ->> 'accepted_at') IS NULL AND (r ->> 'accepted_at') IS NOT NULL THEN verb := 'accepted';
      END IF;
    WHEN 'board_assets' THEN
      oid := r ->> 'board_id';
      SELECT workspace_id, name INTO ws, oname FROM boards WHERE id = oid::uuid;
      ch := jsonb_build_object('asset', (SELECT jsonb_build_object('id', id, 'name', name) FROM assets WHERE id = (r ->> 'asset_id')::uuid));
      verb := CASE TG_OP WHEN 'INSERT' THEN 'asset_added' ELSE 'asset_removed' END;
    WHEN 'asset_tags' THEN
      oid := r ->> 'asset_id';
      SELECT workspace_id, name INTO ws, oname FROM assets WHERE id = oid::uuid;
      ch := jsonb_build_object('tag', (SELECT name FROM tags WHERE id = (r ->> 'tag_id')::uuid));
      verb := CASE TG_OP WHEN 'INSERT' THEN 'tag_added' ELSE 'tag_removed' END;
    WHEN 'asset_favorites' THEN
      oid := r ->> 'asset_id';
      SELECT workspace_id, name INTO ws, oname FROM assets WHERE id = oid::uuid;
      verb := CASE TG_OP WHEN 'INSERT' THEN 'favorited' ELSE 'unfavorited' END;
    WHEN 'asset_versions' THEN
      oname := (r ->> 'name') || ' (v' || (r ->> 'number') || ')';
    WHEN 'comments' THEN
      oname := left(r ->> 'text', 80);
      IF TG_OP = 'UPDATE' AND (o ->> 'resolved_at') IS NULL AND (r ->> 'resolved_at') IS NOT NULL THEN verb := 'resolved';
      ELSIF TG_OP = 'UPDATE' AND (o ->> 'resolved_at') IS NOT NULL AND (r ->> 'resolved_at') IS NULL THEN verb := 'reopened';
      END IF;
    WHEN 'field_options' THEN
      oname := r ->> 'label';
      SELECT workspace_id INTO ws FROM custom_fields WHERE id = (r ->> 'field_id')::uuid;
    WHEN 'field_values' THEN
      oid := r ->> 'asset_id';
      SELECT name INTO oname FROM assets WHERE id = oid::uuid;
      ch := ch || jsonb_build_object('field', (SELECT title FROM custom_fields WHERE id = (r ->> 'field_id')::uuid));
      verb := CASE TG_OP WHEN 'DELETE' THEN 'field_cleared' ELSE 'field_set' END;
    WHEN 'ai_actions' THEN oname := r ->> 'kind';
    WHEN 'share_links' THEN
      oname := (r ->> 'content_type') || ' ' || coalesce(
        (SELECT name FROM assets WHERE id = (r ->> 'object_id')::uuid),
        (SELECT name FROM boards WHERE id = (r ->> 'object_id')::uuid), '');
    WHEN 'file_request_uploads' THEN
      oid := r ->> 'request_id';
      SELECT workspace_id, title INTO ws, oname FROM file_requests WHERE id = oid::uuid;
      ch := jsonb_build_object('asset', (SELECT jsonb_build_object('id', id, 'name', name) FROM assets WHERE id = (r ->> 'asset_id')::uuid));
      verb := 'file_received';
    WHEN 'review_decisions' THEN
      oid := r ->> 'review_id';
      SELECT title INTO oname FROM reviews WHERE id = oid::uuid;
      ch := jsonb_build_object('asset', r ->> 'asset_name', 'version', r -> 'version_number', 'decision', r ->> 'decision');
      verb := 'decided';
    WHEN 'review_reviewers' THEN
      oid := r ->> 'review_id';
      SELECT title INTO oname FROM reviews WHERE id = oid::uuid;
      ch := ch || jsonb_build_object('reviewer', coalesce(r ->> 'name', r ->> 'email', (SELECT email FROM users WHERE id = (r ->> 'user_id')::uuid)));
      verb := CASE TG_OP WHEN 'INSERT' THEN 'reviewer_added' WHEN 'DELETE' THEN 'reviewer_deleted' ELSE 'reviewer_updated' END;
    WHEN 'duplicate_dismissals' THEN ch := jsonb_build_object('assets', r -> 'asset_ids'); verb := 'dismissed';
    WHEN 'duplicate_settings' THEN oid := r ->> 'workspace_id'; verb := 'settings_changed';
    WHEN 'billing_subscriptions' THEN oid := r ->> 'workspace_id'; oname := r ->> 'plan_key';
    WHEN 'billing_checkout_sessions' THEN oname := r ->> 'plan_key'; verb := 'checkout_started';
    WHEN 'users' THEN oname := r ->> 'email'; uid := (r ->> 'id')::uuid;
    WHEN 'face_settings' THEN oid := r ->> 'workspace_id'; verb := 'recognition_changed';
    WHEN 'faces' THEN
      SELECT name INTO oname FROM people WHERE id = (r ->> 'person_id')::uuid;
      verb := 'person_changed';
    WHEN 'webhook_endpoints' THEN oname := r ->> 'url';
    WHEN 'email_tokens' THEN
      IF TG_OP = 'DELETE' THEN RETURN NULL; END IF; -- expired tokens swept away
      oid := r ->> 'user_id'; uid := oid::uuid; oname := r ->> 'email'; ch := '{}'::jsonb;
      verb := (r ->> 'purpose') || CASE TG_OP WHEN 'INSERT' THEN '_requested' WHEN 'DELETE' THEN '_expired' ELSE '_used' END;
    WHEN 'user_avatars' THEN oid := r ->> 'user_id'; uid := oid::uuid; verb := 'avatar_' || verb;
      SELECT email INTO oname FROM users WHERE id = uid;
    ELSE NULL;
  END CASE;

  -- Recently deleted and back: the soft delete is a column, told apart from other updates.
  IF TG_OP = 'UPDATE' AND r ? 'deleted_at' AND (o ->> 'deleted_at') IS DISTINCT FROM (r ->> 'deleted_at') THEN
    verb := CASE WHEN (r ->> 'deleted_at') IS NULL THEN 'restored' ELSE 'deleted' END;
  ELSIF TG_OP = 'DELETE' AND r ? 'deleted_at' THEN
    verb := 'purged';
  END IF;
  IF TG_TABLE_NAME = 'assets' AND TG_OP = 'UPDATE' AND verb = 'updated'
     AND (o ->> 'current_version_id') IS DISTINCT FROM (r ->> 'current_version_id') THEN
    verb := 'version_made_current';
  END IF;
  IF TG_TABLE_NAME = 'api_keys' AND TG_OP = 'UPDATE' AND (o ->> 'revoked_at') IS NULL AND (r ->> 'revoked_at') IS NOT NULL THEN
    verb := 'revoked';
  END IF;

  -- An asset's status alone: its upload completing is someone's doing; the pipeline's progress is not.
  IF TG_TABLE_NAME = 'assets' AND TG_OP = 'UPDATE' AND (ch - 'status') = '{}'::jsonb THEN
    IF (o ->> 'status') = 'uploading' THEN verb := 'upload_completed'; ELSE RETURN NULL; END IF;
  END IF;

  -- Values longer than 500 characters are cut (a comment's text, an action's configuration).
  IF length(ch::text) > 500 THEN
    SELECT coalesce(jsonb_object_agg(k, CASE WHEN length(v::text) > 500
        THEN to_jsonb(left(v::text, 500) || '…') ELSE v END), '{}'::jsonb)
      INTO ch FROM jsonb_each(ch) AS e(k, v);
  END IF;

  kind := coalesce(ctx ->> 'k', 'system');
  aname := ctx ->> 'n';
  IF kind IN ('visitor', 'reviewer') AND aname IS NULL THEN
    aname := coalesce(r ->> 'author_name', r ->> 'set_by_name', r ->> 'uploader_name');
  END IF;
  IF kind = 'api_key' THEN
    SELECT name INTO aname FROM api_keys WHERE id = (ctx ->> 'id')::uuid;
  END IF;

  INSERT INTO audit_events (workspace_id, user_id, actor_kind, actor_id, actor_name, ip, user_agent, request_id,
                            action, object_type, object_id, object_name, related_id, changes)
  VALUES (ws, uid, kind, ctx ->> 'id', aname, ctx ->> 'ip', left(ctx ->> 'ua', 300), ctx ->> 'rid',
          obj || '.' || verb, obj, oid, left(oname, 200), nullif(rel, oid), nullif(ch, '{}'::jsonb));
  RETURN NULL;
END $fn$`;

/** Assets created and purged, a statement at a time (the row shape audit_row gives them). */
const AUDIT_ASSETS_FUNCTION = `
CREATE FUNCTION audit_assets() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  ctx jsonb := nullif(current_setting('hangar.audit', true), '')::jsonb;
  kind text := coalesce(ctx ->> 'k', 'system');
  key_name text;
BEGIN
  IF pg_trigger_depth() > 1 THEN RETURN NULL; END IF;
  IF kind = 'api_key' THEN SELECT name INTO key_name FROM api_keys WHERE id = (ctx ->> 'id')::uuid; END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO audit_events (workspace_id, actor_kind, actor_id, actor_name, ip, user_agent, request_id,
                              action, object_type, object_id, object_name, changes)
    SELECT v.workspace_id, kind, ctx ->> 'id', coalesce(key_name, ctx ->> 'n'), ctx ->> 'ip', left(ctx ->> 'ua', 300),
           ctx ->> 'rid', 'asset.purged', 'asset', v.id::text, left(v.name, 200),
           jsonb_build_object('name', jsonb_build_object('before', v.name))
    FROM old_rows v;
  ELSE
    INSERT INTO audit_events (workspace_id, actor_kind, actor_id, actor_name, ip, user_agent, request_id,
                              action, object_type, object_id, object_name, changes)
    SELECT v.workspace_id, kind, ctx ->> 'id', coalesce(key_name, ctx ->> 'n'), ctx ->> 'ip', left(ctx ->> 'ua', 300),
           ctx ->> 'rid', 'asset.created', 'asset', v.id::text, left(v.name, 200),
           jsonb_strip_nulls(jsonb_build_object('name', jsonb_build_object('after', v.name),
             'description', CASE WHEN v.description IS NOT NULL THEN jsonb_build_object('after', left(v.description, 500)) END,
             'status', jsonb_build_object('after', v.status)))
    FROM new_rows v;
  END IF;
  RETURN NULL;
END $fn$`;

/** Field values, a statement at a time: the same row shape as audit_row's, joined in one INSERT. */
const AUDIT_FIELD_VALUES_FUNCTION = `
CREATE FUNCTION audit_field_values() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  ctx jsonb := nullif(current_setting('hangar.audit', true), '')::jsonb;
  kind text := coalesce(ctx ->> 'k', 'system');
  key_name text;
BEGIN
  IF pg_trigger_depth() > 1 THEN RETURN NULL; END IF;
  IF kind = 'api_key' THEN SELECT name INTO key_name FROM api_keys WHERE id = (ctx ->> 'id')::uuid; END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO audit_events (workspace_id, actor_kind, actor_id, actor_name, ip, user_agent, request_id,
                              action, object_type, object_id, object_name, changes)
    SELECT v.workspace_id, kind, ctx ->> 'id', coalesce(key_name, ctx ->> 'n'), ctx ->> 'ip', left(ctx ->> 'ua', 300),
           ctx ->> 'rid', 'asset.field_cleared', 'asset', v.asset_id::text, a.name,
           jsonb_build_object('field', f.title)
    FROM old_rows v LEFT JOIN assets a ON a.id = v.asset_id LEFT JOIN custom_fields f ON f.id = v.field_id;
  ELSE
    INSERT INTO audit_events (workspace_id, actor_kind, actor_id, actor_name, ip, user_agent, request_id,
                              action, object_type, object_id, object_name, changes)
    SELECT v.workspace_id, kind, ctx ->> 'id',
           coalesce(key_name, ctx ->> 'n', CASE WHEN kind IN ('visitor', 'reviewer') THEN v.set_by_name END),
           ctx ->> 'ip', left(ctx ->> 'ua', 300), ctx ->> 'rid', 'asset.field_set', 'asset', v.asset_id::text, a.name,
           jsonb_strip_nulls(jsonb_build_object('field', f.title, 'option', o.label, 'text', left(v.text_value, 500),
             'date', v.date_value, 'options', CASE WHEN v.multi_option_ids IS NOT NULL THEN to_jsonb(v.multi_option_ids) END))
    FROM new_rows v LEFT JOIN assets a ON a.id = v.asset_id LEFT JOIN custom_fields f ON f.id = v.field_id
    LEFT JOIN field_options o ON o.id = v.option_id;
  END IF;
  RETURN NULL;
END $fn$`;

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of Object.keys(AUDITED)) {
    await sql.raw(`DROP TRIGGER IF EXISTS audit_insert_delete ON ${table}`).execute(db);
    await sql.raw(`DROP TRIGGER IF EXISTS audit_update ON ${table}`).execute(db);
  }
  for (const op of ["insert", "update", "delete"])
    await sql.raw(`DROP TRIGGER IF EXISTS audit_${op}_statement ON field_values`).execute(db);
  await sql`DROP FUNCTION IF EXISTS audit_field_values()`.execute(db);
  for (const op of ["insert", "delete"])
    await sql.raw(`DROP TRIGGER IF EXISTS audit_${op}_statement ON assets`).execute(db);
  await sql`DROP FUNCTION IF EXISTS audit_assets()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS audit_row()`.execute(db);
  await sql`DROP TABLE IF EXISTS audit_events`.execute(db);
  await sql`DROP FUNCTION IF EXISTS audit_events_append_only()`.execute(db);
  await sql`ALTER TABLE workspaces DROP COLUMN IF EXISTS audit_retention_days`.execute(db);
}
