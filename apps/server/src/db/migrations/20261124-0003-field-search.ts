import { type Kysely, sql } from "kysely";

/**
 * Custom-field values are part of search (issue 16), and option edits reach the read cache: an asset's search text also holds its text
 * values and the labels of its chosen options. Value changes refresh the search text of the assets
 * they touch, once per statement (a 10,000-asset bulk set is one UPDATE of those assets).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION hangar_asset_tag_text(aid uuid) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT coalesce((SELECT string_agg(t.name, ' ') FROM asset_tags at JOIN tags t ON t.id = at.tag_id WHERE at.asset_id = aid), '')
        || ' ' || coalesce((SELECT string_agg(label, ' ') FROM ai_tags WHERE asset_id = aid), '')
        || ' ' || coalesce((SELECT string_agg(concat_ws(' ', v.text_value,
              (SELECT string_agg(o.label, ' ') FROM field_options o WHERE o.id = v.option_id OR o.id = ANY(v.multi_option_ids))), ' ')
            FROM field_values v WHERE v.asset_id = aid), '')
    $$`.execute(db);
  await sql`
    CREATE FUNCTION hangar_field_values_search_touch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- Touching the name fires the search text's BEFORE trigger (migration 0005).
      IF TG_OP = 'DELETE' THEN
        UPDATE assets SET name = name WHERE id IN (SELECT asset_id FROM gone WHERE asset_id IS NOT NULL);
      ELSE
        UPDATE assets SET name = name WHERE id IN (SELECT asset_id FROM came WHERE asset_id IS NOT NULL);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  // Option edits change what asset answers show (the card's field chip): they notify the read cache
  // with the workspace of their field.
  await sql`
    CREATE FUNCTION hangar_cache_by_field() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE ws uuid;
    BEGIN
      SELECT f.workspace_id INTO ws FROM custom_fields f
       WHERE f.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.field_id ELSE NEW.field_id END;
      IF ws IS NOT NULL THEN PERFORM pg_notify('hangar_cache', 'w:' || ws); END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER field_options_cache AFTER INSERT OR UPDATE OR DELETE ON field_options
    FOR EACH ROW EXECUTE FUNCTION hangar_cache_by_field()`.execute(db);
  await sql`CREATE TRIGGER field_options_cache_truncate AFTER TRUNCATE ON field_options
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_cache_all()`.execute(db);
  await sql`CREATE TRIGGER field_values_search_insert AFTER INSERT ON field_values REFERENCING NEW TABLE AS came
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_field_values_search_touch()`.execute(db);
  await sql`CREATE TRIGGER field_values_search_update AFTER UPDATE ON field_values REFERENCING NEW TABLE AS came
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_field_values_search_touch()`.execute(db);
  await sql`CREATE TRIGGER field_values_search_delete AFTER DELETE ON field_values REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_field_values_search_touch()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS field_options_cache ON field_options`.execute(db);
  await sql`DROP TRIGGER IF EXISTS field_options_cache_truncate ON field_options`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_cache_by_field()`.execute(db);
  for (const t of ["insert", "update", "delete"])
    await sql.raw(`DROP TRIGGER IF EXISTS field_values_search_${t} ON field_values`).execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_field_values_search_touch()`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION hangar_asset_tag_text(aid uuid) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT coalesce((SELECT string_agg(t.name, ' ') FROM asset_tags at JOIN tags t ON t.id = at.tag_id WHERE at.asset_id = aid), '')
        || ' ' || coalesce((SELECT string_agg(label, ' ') FROM ai_tags WHERE asset_id = aid), '')
    $$`.execute(db);
}
