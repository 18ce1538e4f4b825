import { type Kysely, sql } from "kysely";

/**
 * Approvals (issue 30, docs/architecture.md §10 "decisions are facts, states are derived").
 *
 * - `reviews`: a request (title, message, due date, lock), its requester, and what the contract's
 *   `reviewState` derived last from its facts (`state`, `done_at`), kept for queries (lists, filters);
 *   `active_stage` is a fact: a stage starts when the one before is complete for every asset. The mail
 *   columns record what was sent, each claimed by one UPDATE so it goes out once.
 * - `review_stages`: each stage's rule and when it started.
 * - `review_reviewers`: members (user_id) and outsiders (email, with their link's token, password,
 *   expiry: a public link of kind "review"). Never deleted (decisions name them): removed ones have
 *   `removed_at`. `waiting` is derived (assets awaiting them).
 * - `review_assets`: the assets, each with its reset point (`reset_seq`: decisions up to it no longer
 *   count, a reopen) and its derived status for the version it was derived on.
 * - `review_decisions`: append-only. A trigger refuses updates (but of the mail mark and the note's
 *   comment going away) and deletes (but when its review is gone with its workspace): decisions are
 *   never deleted. `seq` (shared with the history) orders decisions and reopens.
 * - `review_events`: the history (created, stages started, edits, reopens, cancels, completions,
 *   versions that reset decisions).
 *
 * Notifications: every table sends its workspace's key to the read cache (the asset answer carries
 * `approval`, and review links are resolved through the cache); decisions and state changes are live
 * events (`hangar_events`).
 */
const TABLES = ["reviews", "review_stages", "review_reviewers", "review_assets", "review_decisions", "review_events"];

// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`
    CREATE SEQUENCE review_seq;

    CREATE TABLE reviews (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
      message text NOT NULL DEFAULT '' CHECK (char_length(message) <= 5000),
      board_id uuid REFERENCES boards(id) ON DELETE SET NULL,
      due_at timestamptz,
      lock_on_approval boolean NOT NULL DEFAULT true,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      state text NOT NULL DEFAULT 'open'
        CHECK (state IN ('open', 'approved', 'changes_requested', 'rejected', 'canceled')),
      active_stage integer NOT NULL DEFAULT 0,
      done_at timestamptz,
      canceled_at timestamptz,
      done_mailed_at timestamptz,
      digest_until timestamptz,
      reminder_sent_at timestamptz,
      overdue_sent_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX reviews_workspace ON reviews (workspace_id, created_at DESC, id DESC);
    CREATE INDEX reviews_due ON reviews (due_at) WHERE canceled_at IS NULL AND done_at IS NULL AND due_at IS NOT NULL;

    CREATE TABLE review_stages (
      review_id uuid NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      position integer NOT NULL CHECK (position >= 0),
      rule text NOT NULL CHECK (rule IN ('all', 'any')),
      started_at timestamptz,
      PRIMARY KEY (review_id, position)
    );

    CREATE TABLE review_reviewers (
      id uuid PRIMARY KEY,
      review_id uuid NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      stage integer NOT NULL CHECK (stage >= 0),
      position integer NOT NULL DEFAULT 0,
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      email text,
      name text NOT NULL DEFAULT '',
      token text UNIQUE,
      is_active boolean NOT NULL DEFAULT true,
      expires_at timestamptz,
      password_hash text,
      password_version integer NOT NULL DEFAULT 0,
      waiting integer NOT NULL DEFAULT 0,
      asked_at timestamptz,
      removed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (user_id IS NULL OR email IS NULL),
      CHECK ((email IS NULL) = (token IS NULL))
    );
    CREATE UNIQUE INDEX review_reviewers_user ON review_reviewers (review_id, user_id)
      WHERE user_id IS NOT NULL AND removed_at IS NULL;
    CREATE UNIQUE INDEX review_reviewers_email ON review_reviewers (review_id, email)
      WHERE email IS NOT NULL AND removed_at IS NULL;
    CREATE INDEX review_reviewers_review ON review_reviewers (review_id);
    CREATE INDEX review_reviewers_waiting ON review_reviewers (user_id, review_id) WHERE waiting > 0;
    CREATE INDEX review_reviewers_unasked ON review_reviewers (review_id) WHERE asked_at IS NULL AND removed_at IS NULL;

    CREATE TABLE review_assets (
      review_id uuid NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      position integer NOT NULL,
      reset_seq bigint NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'in_review'
        CHECK (status IN ('in_review', 'approved', 'approved_with_changes', 'changes_requested', 'rejected')),
      version_id uuid,
      PRIMARY KEY (review_id, asset_id)
    );
    CREATE INDEX review_assets_asset ON review_assets (asset_id);

    CREATE TABLE review_decisions (
      id uuid PRIMARY KEY,
      seq bigint NOT NULL DEFAULT nextval('review_seq'),
      review_id uuid NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      asset_id uuid NOT NULL,
      asset_name text NOT NULL,
      version_id uuid NOT NULL,
      version_number integer NOT NULL,
      reviewer_id uuid NOT NULL REFERENCES review_reviewers(id) ON DELETE CASCADE,
      stage integer NOT NULL,
      decision text NOT NULL CHECK (decision IN ('approved', 'approved_with_changes', 'changes_requested', 'rejected')),
      note text,
      comment_id uuid REFERENCES comments(id) ON DELETE SET NULL,
      at_once boolean NOT NULL DEFAULT false,
      mailed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX review_decisions_review ON review_decisions (review_id, asset_id, seq);
    CREATE INDEX review_decisions_unmailed ON review_decisions (review_id) WHERE mailed_at IS NULL;

    CREATE TABLE review_events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq bigint NOT NULL DEFAULT nextval('review_seq'),
      review_id uuid NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      type text NOT NULL
        CHECK (type IN ('created', 'edited', 'stage_started', 'reopened', 'canceled', 'completed', 'version')),
      actor_id uuid REFERENCES users(id) ON DELETE SET NULL,
      actor_name text,
      stage integer,
      asset_ids uuid[] NOT NULL DEFAULT '{}',
      detail text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX review_events_review ON review_events (review_id, seq);

    -- Decisions are facts: changed only in what is not the fact, deleted only with their review.
    CREATE FUNCTION review_decisions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        IF EXISTS (SELECT 1 FROM reviews r WHERE r.id = OLD.review_id) THEN
          RAISE EXCEPTION 'review decisions are never deleted' USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN OLD;
      END IF;
      IF (NEW.id, NEW.seq, NEW.review_id, NEW.asset_id, NEW.version_id, NEW.reviewer_id, NEW.stage, NEW.decision,
          NEW.note, NEW.created_at) IS DISTINCT FROM
         (OLD.id, OLD.seq, OLD.review_id, OLD.asset_id, OLD.version_id, OLD.reviewer_id, OLD.stage, OLD.decision,
          OLD.note, OLD.created_at) THEN
        RAISE EXCEPTION 'review decisions are never changed' USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER review_decisions_immutable BEFORE UPDATE OR DELETE ON review_decisions
    FOR EACH ROW EXECUTE FUNCTION review_decisions_immutable();

    CREATE FUNCTION hangar_events_review() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'review_decisions' THEN
        PERFORM pg_notify('hangar_events', json_build_object('ws', NEW.workspace_id, 'type', 'review.decision',
          'review_id', NEW.review_id, 'asset_id', NEW.asset_id, 'decision_id', NEW.id)::text);
      ELSIF TG_TABLE_NAME = 'review_assets' THEN
        PERFORM pg_notify('hangar_events', json_build_object('ws', NEW.workspace_id, 'type', 'review.asset',
          'review_id', NEW.review_id, 'asset_id', NEW.asset_id, 'status', NEW.status)::text);
      ELSE
        PERFORM pg_notify('hangar_events', json_build_object('ws', NEW.workspace_id, 'type', 'review.state',
          'review_id', NEW.id, 'state', NEW.state)::text);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER review_decisions_events AFTER INSERT ON review_decisions
    FOR EACH ROW EXECUTE FUNCTION hangar_events_review();
    CREATE TRIGGER review_assets_events AFTER UPDATE OF status ON review_assets
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION hangar_events_review();
    CREATE TRIGGER reviews_events_insert AFTER INSERT ON reviews
    FOR EACH ROW EXECUTE FUNCTION hangar_events_review();
    CREATE TRIGGER reviews_events AFTER UPDATE ON reviews
    FOR EACH ROW WHEN ((OLD.state, OLD.active_stage, OLD.canceled_at, OLD.done_at) IS DISTINCT FROM
                       (NEW.state, NEW.active_stage, NEW.canceled_at, NEW.done_at))
    EXECUTE FUNCTION hangar_events_review();
  `)
    .execute(db);
  for (const t of TABLES) {
    await sql
      .raw(`CREATE TRIGGER ${t}_cache_notify AFTER INSERT OR UPDATE OR DELETE ON ${t}
            FOR EACH ROW EXECUTE FUNCTION hangar_cache_by_workspace()`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER ${t}_cache_truncate AFTER TRUNCATE ON ${t}
            FOR EACH STATEMENT EXECUTE FUNCTION hangar_cache_all()`)
      .execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [...TABLES].reverse()) await sql.raw(`DROP TABLE IF EXISTS ${t} CASCADE`).execute(db);
  await sql`DROP FUNCTION IF EXISTS review_decisions_immutable()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_events_review()`.execute(db);
  await sql`DROP SEQUENCE IF EXISTS review_seq`.execute(db);
}
