import { type Kysely, sql } from "kysely";

/**
 * AI actions (issue 16): actions on field options, each asset's last evaluation per action (with its
 * evidence), "run on all assets" runs with their progress, and what the pipeline saw of an asset that
 * actions read later (object boxes, OCR words). OCR text joins the asset's search text the way
 * custom-field text did in 20261124-0003 (its changes touch the asset's name, which refreshes it).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE ai_actions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      field_id uuid NOT NULL REFERENCES custom_fields(id) ON DELETE CASCADE,
      option_id uuid NOT NULL REFERENCES field_options(id) ON DELETE CASCADE,
      kind text NOT NULL,
      config jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX ai_actions_workspace ON ai_actions (workspace_id)`.execute(db);
  await sql`CREATE INDEX ai_actions_option ON ai_actions (option_id)`.execute(db);
  await sql`
    CREATE TABLE ai_action_results (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      action_id uuid NOT NULL REFERENCES ai_actions(id) ON DELETE CASCADE,
      matched boolean NOT NULL,
      confidence real NOT NULL,
      evidence jsonb NOT NULL DEFAULT '{}',
      set_value boolean NOT NULL DEFAULT false,
      evaluated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (asset_id, action_id)
    )`.execute(db);
  await sql`CREATE INDEX ai_action_results_action ON ai_action_results (action_id)`.execute(db);
  await sql`
    CREATE TABLE ai_action_runs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      field_id uuid REFERENCES custom_fields(id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
      total integer NOT NULL DEFAULT 0,
      processed integer NOT NULL DEFAULT 0,
      changes integer NOT NULL DEFAULT 0,
      error text,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX ai_action_runs_workspace ON ai_action_runs (workspace_id, created_at DESC)`.execute(db);
  await sql`
    CREATE TABLE asset_vision (
      asset_id uuid PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      objects jsonb NOT NULL DEFAULT '[]',
      ocr_status text NOT NULL DEFAULT 'none' CHECK (ocr_status IN ('none', 'done', 'failed')),
      ocr_text text NOT NULL DEFAULT '' CHECK (char_length(ocr_text) <= 50000),
      ocr_words jsonb NOT NULL DEFAULT '[]',
      ocr_error text,
      ocr_ms integer,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION hangar_asset_tag_text(aid uuid) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT coalesce((SELECT string_agg(t.name, ' ') FROM asset_tags at JOIN tags t ON t.id = at.tag_id WHERE at.asset_id = aid), '')
        || ' ' || coalesce((SELECT string_agg(label, ' ') FROM ai_tags WHERE asset_id = aid), '')
        || ' ' || coalesce((SELECT string_agg(concat_ws(' ', v.text_value,
              (SELECT string_agg(o.label, ' ') FROM field_options o WHERE o.id = v.option_id OR o.id = ANY(v.multi_option_ids))), ' ')
            FROM field_values v WHERE v.asset_id = aid), '')
        || ' ' || coalesce((SELECT ocr_text FROM asset_vision WHERE asset_id = aid), '')
    $$`.execute(db);
  await sql`
    CREATE FUNCTION hangar_asset_vision_search_touch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        UPDATE assets SET name = name WHERE id = OLD.asset_id;
      ELSIF TG_OP = 'INSERT' OR NEW.ocr_text IS DISTINCT FROM OLD.ocr_text THEN
        UPDATE assets SET name = name WHERE id = NEW.asset_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER asset_vision_search AFTER INSERT OR UPDATE OR DELETE ON asset_vision
    FOR EACH ROW EXECUTE FUNCTION hangar_asset_vision_search_touch()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS asset_vision`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_asset_vision_search_touch()`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION hangar_asset_tag_text(aid uuid) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT coalesce((SELECT string_agg(t.name, ' ') FROM asset_tags at JOIN tags t ON t.id = at.tag_id WHERE at.asset_id = aid), '')
        || ' ' || coalesce((SELECT string_agg(label, ' ') FROM ai_tags WHERE asset_id = aid), '')
        || ' ' || coalesce((SELECT string_agg(concat_ws(' ', v.text_value,
              (SELECT string_agg(o.label, ' ') FROM field_options o WHERE o.id = v.option_id OR o.id = ANY(v.multi_option_ids))), ' ')
            FROM field_values v WHERE v.asset_id = aid), '')
    $$`.execute(db);
  await sql`DROP TABLE IF EXISTS ai_action_runs`.execute(db);
  await sql`DROP TABLE IF EXISTS ai_action_results`.execute(db);
  await sql`DROP TABLE IF EXISTS ai_actions`.execute(db);
}
