import { type Kysely, sql } from "kysely";

/**
 * Signed webhooks (issue 36; docs/architecture.md §4.5, docs/webhooks.md).
 *
 * - `webhook_endpoints`: an ADMIN's URL, the events it wants, its signing secret (encrypted with the
 *   server's key: the server must sign, so it cannot keep only a hash), whether it is enabled, and since
 *   when its deliveries fail (`failing_since`: a day of failures disables it).
 * - `webhook_events`: the outbox. Triggers on the tables whose changes are events write a row in the
 *   change's own transaction, only when an enabled endpoint of the workspace wants that event (one
 *   indexed look-up), and NOTIFY `hangar_webhooks` at commit; workers hear it and turn each event into
 *   deliveries (the object serialized as the API answers it). No foreign key to the workspace: a
 *   workspace's cascade delete writes `member.removed` rows too, which the dispatcher then drops. Row
 *   ids (`seq`) give the order: two changes of one object lock its row, so they are numbered in commit
 *   order. Pending `asset.updated` events of one asset coalesce (the object is read when dispatched).
 * - `webhook_deliveries`: one event to one endpoint, its body fixed when created, retried with backoff
 *   until `give_up_at`; deliveries of one endpoint about one object (`object_key`) go in `seq` order,
 *   the next waiting for the one before to succeed or give up. `claim`/`claimed_until` let one worker
 *   at a time attempt a delivery.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`
    CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      url text NOT NULL CHECK (char_length(url) <= 2000),
      description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 200),
      events text[] NOT NULL CHECK (cardinality(events) > 0),
      secret_box text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      failing_since timestamptz,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_endpoints_workspace ON webhook_endpoints (workspace_id, created_at);

    CREATE TABLE webhook_events (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL,
      type text NOT NULL,
      object_type text NOT NULL,
      object_id uuid NOT NULL,
      object_key text NOT NULL,
      data jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      dispatched_at timestamptz
    );
    CREATE INDEX webhook_events_pending ON webhook_events (seq) WHERE dispatched_at IS NULL;
    CREATE INDEX webhook_events_dispatched ON webhook_events (dispatched_at) WHERE dispatched_at IS NOT NULL;
    CREATE UNIQUE INDEX webhook_events_coalesce ON webhook_events (object_key, type)
      WHERE dispatched_at IS NULL AND type = 'asset.updated';

    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq bigserial NOT NULL UNIQUE,
      endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      event_id uuid NOT NULL,
      type text NOT NULL,
      object_key text NOT NULL,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      give_up_at timestamptz NOT NULL,
      claim uuid,
      claimed_until timestamptz,
      last_attempt_at timestamptz,
      response_status integer,
      response_body text,
      error text,
      duration_ms integer,
      delivered_at timestamptz,
      is_test boolean NOT NULL DEFAULT false,
      redelivery_of uuid,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, seq DESC);
    CREATE INDEX webhook_deliveries_chain ON webhook_deliveries (endpoint_id, object_key, seq) WHERE status = 'pending';
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
    CREATE INDEX webhook_deliveries_age ON webhook_deliveries (created_at);

    -- One event into the outbox, when an enabled endpoint of the workspace wants it.
    CREATE FUNCTION hangar_webhook_event(ws uuid, kind text, obj_type text, obj_id uuid, obj_key text, extra jsonb)
    RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF ws IS NULL OR NOT EXISTS (
        SELECT 1 FROM webhook_endpoints WHERE workspace_id = ws AND enabled AND kind = ANY (events)
      ) THEN RETURN; END IF;
      INSERT INTO webhook_events (workspace_id, type, object_type, object_id, object_key, data)
      VALUES (ws, kind, obj_type, obj_id, obj_key, coalesce(extra, '{}'::jsonb))
      ON CONFLICT (object_key, type) WHERE dispatched_at IS NULL AND type = 'asset.updated' DO NOTHING;
      PERFORM pg_notify('hangar_webhooks', '');
    END $$;

    -- A version's bytes arrived (the asset's first: created; a later one: a version added), and a
    -- version's processing ended (COMPLETED or error).
    CREATE FUNCTION hangar_webhooks_version() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE req uuid;
    BEGIN
      IF OLD.status = 'uploading' THEN
        IF NEW.id = NEW.asset_id THEN
          PERFORM hangar_webhook_event(NEW.workspace_id, 'asset.created', 'asset', NEW.asset_id, NEW.asset_id::text, NULL);
          SELECT request_id INTO req FROM file_request_uploads WHERE asset_id = NEW.asset_id;
          IF req IS NOT NULL THEN
            PERFORM hangar_webhook_event(NEW.workspace_id, 'upload_link.received', 'asset', NEW.asset_id,
              NEW.asset_id::text, jsonb_build_object('upload_link_id', req));
          END IF;
        ELSE
          PERFORM hangar_webhook_event(NEW.workspace_id, 'asset.version_added', 'asset', NEW.asset_id, NEW.asset_id::text,
            jsonb_build_object('version_id', NEW.id, 'version_number', NEW.number));
        END IF;
      END IF;
      IF NEW.status IN ('COMPLETED', 'error') THEN
        PERFORM hangar_webhook_event(NEW.workspace_id, 'asset.processed', 'asset', NEW.asset_id, NEW.asset_id::text,
          jsonb_build_object('version_id', NEW.id, 'version_number', NEW.number, 'status', NEW.status));
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER asset_versions_webhooks AFTER UPDATE OF status ON asset_versions
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION hangar_webhooks_version();

    -- An asset deleted (to Recently deleted), or renamed or described anew.
    CREATE FUNCTION hangar_webhooks_asset() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
        PERFORM hangar_webhook_event(NEW.workspace_id, 'asset.deleted', 'asset', NEW.id, NEW.id::text, NULL);
      ELSIF NEW.deleted_at IS NULL AND NEW.status <> 'uploading'
        AND (OLD.name IS DISTINCT FROM NEW.name OR OLD.description IS DISTINCT FROM NEW.description) THEN
        PERFORM hangar_webhook_event(NEW.workspace_id, 'asset.updated', 'asset', NEW.id, NEW.id::text, NULL);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER assets_webhooks AFTER UPDATE OF deleted_at, name, description ON assets
    FOR EACH ROW EXECUTE FUNCTION hangar_webhooks_asset();

    -- Tags and boards of live assets changed: one statement, one event per asset (transition tables).
    CREATE FUNCTION hangar_webhooks_asset_links() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO webhook_events (workspace_id, type, object_type, object_id, object_key)
      SELECT DISTINCT a.workspace_id, 'asset.updated', 'asset', a.id, a.id::text
      FROM changed c JOIN assets a ON a.id = c.asset_id
      WHERE a.deleted_at IS NULL AND a.status <> 'uploading' AND EXISTS (
        SELECT 1 FROM webhook_endpoints e
        WHERE e.workspace_id = a.workspace_id AND e.enabled AND 'asset.updated' = ANY (e.events))
      ON CONFLICT (object_key, type) WHERE dispatched_at IS NULL AND type = 'asset.updated' DO NOTHING;
      IF FOUND THEN PERFORM pg_notify('hangar_webhooks', ''); END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER asset_tags_webhooks_in AFTER INSERT ON asset_tags REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_webhooks_asset_links();
    CREATE TRIGGER asset_tags_webhooks_out AFTER DELETE ON asset_tags REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_webhooks_asset_links();
    CREATE TRIGGER board_assets_webhooks_in AFTER INSERT ON board_assets REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_webhooks_asset_links();
    CREATE TRIGGER board_assets_webhooks_out AFTER DELETE ON board_assets REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_webhooks_asset_links();

    CREATE FUNCTION hangar_webhooks_comment() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM hangar_webhook_event(NEW.workspace_id, 'comment.created', 'comment', NEW.id, NEW.id::text,
          jsonb_build_object('asset_id', NEW.asset_id));
      ELSIF OLD.resolved_at IS NULL AND NEW.resolved_at IS NOT NULL THEN
        PERFORM hangar_webhook_event(NEW.workspace_id, 'comment.resolved', 'comment', NEW.id, NEW.id::text,
          jsonb_build_object('asset_id', NEW.asset_id));
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER comments_webhooks AFTER INSERT OR UPDATE OF resolved_at ON comments
    FOR EACH ROW EXECUTE FUNCTION hangar_webhooks_comment();

    CREATE FUNCTION hangar_webhooks_decision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM hangar_webhook_event(NEW.workspace_id, 'review.decided', 'review', NEW.review_id, NEW.review_id::text,
        jsonb_build_object('decision', jsonb_build_object(
          'id', NEW.id, 'asset_id', NEW.asset_id, 'asset_name', NEW.asset_name, 'version_id', NEW.version_id,
          'version_number', NEW.version_number, 'reviewer_id', NEW.reviewer_id, 'stage', NEW.stage,
          'decision', NEW.decision, 'note', NEW.note, 'created_at', NEW.created_at)));
      RETURN NULL;
    END $$;
    CREATE TRIGGER review_decisions_webhooks AFTER INSERT ON review_decisions
    FOR EACH ROW EXECUTE FUNCTION hangar_webhooks_decision();

    CREATE FUNCTION hangar_webhooks_review_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM hangar_webhook_event(NEW.workspace_id, 'review.completed', 'review', NEW.review_id, NEW.review_id::text, NULL);
      RETURN NULL;
    END $$;
    CREATE TRIGGER review_events_webhooks AFTER INSERT ON review_events
    FOR EACH ROW WHEN (NEW.type = 'completed') EXECUTE FUNCTION hangar_webhooks_review_event();

    CREATE FUNCTION hangar_webhooks_share() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM hangar_webhook_event(NEW.workspace_id, 'share.created', 'share', NEW.id, NEW.id::text, NULL);
      RETURN NULL;
    END $$;
    CREATE TRIGGER share_links_webhooks AFTER INSERT ON share_links
    FOR EACH ROW EXECUTE FUNCTION hangar_webhooks_share();

    CREATE FUNCTION hangar_webhooks_share_open() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM hangar_webhook_event(l.workspace_id, 'share.viewed', 'share', l.id, l.id::text, NULL)
      FROM share_links l WHERE l.id = NEW.link_id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER share_link_activity_webhooks AFTER INSERT OR UPDATE ON share_link_activity
    FOR EACH ROW WHEN (NEW.kind = 'open') EXECUTE FUNCTION hangar_webhooks_share_open();

    -- A removed member's row is gone by the time the event is dispatched: it carries what the API answered.
    CREATE FUNCTION hangar_webhooks_member() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM hangar_webhook_event(NEW.workspace_id, 'member.added', 'member', NEW.user_id, NEW.user_id::text, NULL);
      ELSE
        PERFORM hangar_webhook_event(OLD.workspace_id, 'member.removed', 'member', OLD.user_id, OLD.user_id::text,
          jsonb_build_object('member', (
            SELECT jsonb_build_object('user_id', u.id, 'email', u.email, 'first_name', u.first_name,
              'last_name', u.last_name, 'avatar_url', NULL, 'role', OLD.role, 'joined_at', OLD.created_at)
            FROM users u WHERE u.id = OLD.user_id)));
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER memberships_webhooks AFTER INSERT OR DELETE ON memberships
    FOR EACH ROW EXECUTE FUNCTION hangar_webhooks_member();
  `)
    .execute(db);
}

const TRIGGERS: Array<[string, string]> = [
  ["asset_versions_webhooks", "asset_versions"],
  ["assets_webhooks", "assets"],
  ["asset_tags_webhooks_in", "asset_tags"],
  ["asset_tags_webhooks_out", "asset_tags"],
  ["board_assets_webhooks_in", "board_assets"],
  ["board_assets_webhooks_out", "board_assets"],
  ["comments_webhooks", "comments"],
  ["review_decisions_webhooks", "review_decisions"],
  ["review_events_webhooks", "review_events"],
  ["share_links_webhooks", "share_links"],
  ["share_link_activity_webhooks", "share_link_activity"],
  ["memberships_webhooks", "memberships"],
];
const FUNCTIONS = [
  "hangar_webhooks_version()",
  "hangar_webhooks_asset()",
  "hangar_webhooks_asset_links()",
  "hangar_webhooks_comment()",
  "hangar_webhooks_decision()",
  "hangar_webhooks_review_event()",
  "hangar_webhooks_share()",
  "hangar_webhooks_share_open()",
  "hangar_webhooks_member()",
  "hangar_webhook_event(uuid, text, text, uuid, text, jsonb)",
];

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const [t, table] of TRIGGERS) await sql.raw(`DROP TRIGGER IF EXISTS ${t} ON ${table}`).execute(db);
  for (const f of FUNCTIONS) await sql.raw(`DROP FUNCTION IF EXISTS ${f}`).execute(db);
  await sql`DROP TABLE IF EXISTS webhook_deliveries`.execute(db);
  await sql`DROP TABLE IF EXISTS webhook_events`.execute(db);
  await sql`DROP TABLE IF EXISTS webhook_endpoints`.execute(db);
}
