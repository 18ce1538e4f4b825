import { type Kysely, sql } from "kysely";

/**
 * Custom-field values are part of search (issue 16): an asset's search text also holds its text
 * values and the labels of its chosen options. Value changes refresh the search text of the assets
 * they touch, once per statement (a 10,000-asset bulk set is one UPDATE of those assets).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (DESIGN.md §3)
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
  await sql`CREATE TRIGGER field_values_search_insert AFTER INSERT ON field_values REFERENCING NEW TABLE AS came
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_field_values_search_touch()`.execute(db);
  await sql`CREATE TRIGGER field_values_search_update AFTER UPDATE ON field_values REFERENCING NEW TABLE AS came
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_field_values_search_touch()`.execute(db);
  await sql`CREATE TRIGGER field_values_search_delete AFTER DELETE ON field_values REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_field_values_search_touch()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["insert", "update", "delete"])
    await sql.raw(`DROP TRIGGER IF EXISTS field_values_search_${t} ON field_values`).execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_field_values_search_touch()`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION hangar_asset_tag_text(aid uuid) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT coalesce((SELECT string_agg(t.name, ' ') FROM asset_tags at JOIN tags t ON t.id = at.tag_id WHERE at.asset_id = aid), '')
        || ' ' || coalesce((SELECT string_agg(label, ' ') FROM ai_tags WHERE asset_id = aid), '')
    $$`.execute(db);
}
