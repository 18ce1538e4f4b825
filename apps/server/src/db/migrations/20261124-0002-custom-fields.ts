import { type Kysely, sql } from "kysely";

/**
 * Custom fields (docs/architecture.md §9, spec 02 §3): a workspace's fields in order, their coloured options, and
 * values on assets and boards — one row per (field, asset) or (field, board). A select's value is an
 * option id, a multi select's an array of them (GIN-indexed for any-of / all-of), text and dates as
 * such. `set_by_*` says who set it last (a member, a visitor by name, or an AI action), so an action
 * never overwrites a person's choice. Value changes notify the read cache (listing filters read them).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE custom_fields (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 100),
      field_type text NOT NULL CHECK (field_type IN ('SINGLE_SELECT', 'MULTI_SELECT', 'TEXT', 'DATE')),
      position integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX custom_fields_title ON custom_fields (workspace_id, lower(title))`.execute(db);
  await sql`
    CREATE TABLE field_options (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      field_id uuid NOT NULL REFERENCES custom_fields(id) ON DELETE CASCADE,
      label text NOT NULL CHECK (char_length(label) BETWEEN 1 AND 100),
      color text NOT NULL CHECK (color ~ '^#[0-9a-fA-F]{6}$'),
      position integer NOT NULL DEFAULT 0
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX field_options_label ON field_options (field_id, lower(label))`.execute(db);
  await sql`
    CREATE TABLE field_values (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      field_id uuid NOT NULL REFERENCES custom_fields(id) ON DELETE CASCADE,
      asset_id uuid REFERENCES assets(id) ON DELETE CASCADE,
      board_id uuid REFERENCES boards(id) ON DELETE CASCADE,
      option_id uuid REFERENCES field_options(id) ON DELETE SET NULL,
      multi_option_ids uuid[] NOT NULL DEFAULT '{}',
      text_value text CHECK (char_length(text_value) <= 5000),
      date_value date,
      set_by_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      set_by_name text,
      set_by_action_id uuid,
      set_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((asset_id IS NULL) <> (board_id IS NULL))
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX field_values_asset ON field_values (field_id, asset_id) WHERE asset_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX field_values_board ON field_values (field_id, board_id) WHERE board_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX field_values_by_asset ON field_values (asset_id) WHERE asset_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX field_values_option ON field_values (field_id, option_id) WHERE option_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX field_values_multi ON field_values USING gin (multi_option_ids)`.execute(db);
  await sql`CREATE INDEX field_values_date ON field_values (field_id, date_value) WHERE date_value IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX field_values_text ON field_values USING gin (text_value gin_trgm_ops)`.execute(db);
  for (const t of ["custom_fields", "field_values"]) {
    await sql
      .raw(`CREATE TRIGGER ${t}_cache AFTER INSERT OR UPDATE OR DELETE ON ${t}
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
  await sql`DROP TABLE IF EXISTS field_values`.execute(db);
  await sql`DROP TABLE IF EXISTS field_options`.execute(db);
  await sql`DROP TABLE IF EXISTS custom_fields`.execute(db);
}
