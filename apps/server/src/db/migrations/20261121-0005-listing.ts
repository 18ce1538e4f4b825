import { type Kysely, sql } from "kysely";

/**
 * The asset listing at a million assets per workspace (contract listing.ts documents the semantics).
 *
 * - `hangar_norm(text)`: lower(unaccent(text)) declared IMMUTABLE (unaccent() is only STABLE because its
 *   dictionary could change; ours never does), so search text can be compared accent-insensitively.
 * - `assets.search_text` (normalised name, description, manual tags, AI tags, camera make/model/lens)
 *   with a trigram GIN index for substring search, and `assets.search_vector` (English tsvector of the
 *   same) with a GIN index for word stems. Triggers keep them in step: a BEFORE trigger on assets when
 *   name/description/EXIF text change, and AFTER triggers on asset_tags, ai_tags and tag renames. The
 *   pipeline and the tagging code need not know.
 * - `asset_colors`: one row per palette colour with its CIELAB values, so ΔE can be computed in SQL;
 *   an AFTER trigger on assets refreshes it when `palette` changes.
 * - Partial indexes over listable assets (not deleted, not temporary) for every order, each ending in
 *   id (the tie-breaker), so a page is an index scan and a deep page an index-only OFFSET.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION hangar_norm(t text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, t)) $$`.execute(db);

  await sql`ALTER TABLE assets ADD COLUMN search_text text NOT NULL DEFAULT '', ADD COLUMN search_vector tsvector`.execute(
    db,
  );

  // The tags of one asset, as text; used by the triggers below.
  await sql`
    CREATE FUNCTION hangar_asset_tag_text(aid uuid) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT coalesce((SELECT string_agg(t.name, ' ') FROM asset_tags at JOIN tags t ON t.id = at.tag_id WHERE at.asset_id = aid), '')
        || ' ' || coalesce((SELECT string_agg(label, ' ') FROM ai_tags WHERE asset_id = aid), '')
    $$`.execute(db);

  await sql`
    CREATE FUNCTION hangar_assets_search_fill() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE raw text;
    BEGIN
      raw := concat_ws(' ', NEW.name, NEW.description, NEW.camera_make, NEW.camera_model, NEW.lens,
                       hangar_asset_tag_text(NEW.id));
      NEW.search_text := hangar_norm(raw);
      NEW.search_vector := to_tsvector('english', NEW.search_text);
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER assets_search_fill BEFORE INSERT OR UPDATE OF name, description, camera_make, camera_model, lens, exif
    ON assets FOR EACH ROW EXECUTE FUNCTION hangar_assets_search_fill()`.execute(db);

  // Tag changes touch the asset's name to itself: that fires the BEFORE trigger above.
  await sql`
    CREATE FUNCTION hangar_assets_search_touch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        UPDATE assets SET name = name WHERE id = OLD.asset_id;
      ELSE
        UPDATE assets SET name = name WHERE id = NEW.asset_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  for (const t of ["asset_tags", "ai_tags"]) {
    await sql`
      CREATE TRIGGER ${sql.raw(`${t}_search_touch`)} AFTER INSERT OR DELETE OR UPDATE ON ${sql.table(t)}
      FOR EACH ROW EXECUTE FUNCTION hangar_assets_search_touch()`.execute(db);
  }
  await sql`
    CREATE FUNCTION hangar_tags_rename_touch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE assets SET name = name WHERE id IN (SELECT asset_id FROM asset_tags WHERE tag_id = NEW.id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER tags_search_touch AFTER UPDATE OF name ON tags
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION hangar_tags_rename_touch()`.execute(db);

  await sql`UPDATE assets SET name = name`.execute(db);
  await sql`CREATE INDEX assets_search_trgm_idx ON assets USING gin (search_text gin_trgm_ops) WHERE deleted_at IS NULL AND NOT is_temp`.execute(
    db,
  );
  await sql`CREATE INDEX assets_search_fts_idx ON assets USING gin (search_vector) WHERE deleted_at IS NULL AND NOT is_temp`.execute(
    db,
  );

  await sql`
    CREATE TABLE asset_colors (
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      position smallint NOT NULL,
      hex text NOT NULL,
      share real NOT NULL,
      l real NOT NULL,
      a real NOT NULL,
      b real NOT NULL,
      PRIMARY KEY (asset_id, position)
    )`.execute(db);
  // A colour search looks up close colours first (a box of ±ΔE on L*, then a*, b* checked in the index).
  await sql`CREATE INDEX asset_colors_lab_idx ON asset_colors (l, a, b, asset_id) WHERE share >= 0.05`.execute(db);
  await sql`
    CREATE FUNCTION hangar_asset_colors_fill() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM asset_colors WHERE asset_id = NEW.id;
      IF NEW.palette IS NOT NULL AND jsonb_typeof(NEW.palette) = 'array' THEN
        INSERT INTO asset_colors (asset_id, position, hex, share, l, a, b)
        SELECT NEW.id, (e.n - 1)::smallint, e.c->>'hex', (e.c->>'share')::real,
               (e.c->'lab'->>'l')::real, (e.c->'lab'->>'a')::real, (e.c->'lab'->>'b')::real
        FROM jsonb_array_elements(NEW.palette) WITH ORDINALITY AS e(c, n)
        WHERE e.c ? 'lab' AND e.c ? 'hex';
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER assets_colors_fill AFTER INSERT OR UPDATE OF palette ON assets
    FOR EACH ROW EXECUTE FUNCTION hangar_asset_colors_fill()`.execute(db);
  await sql`
    INSERT INTO asset_colors (asset_id, position, hex, share, l, a, b)
    SELECT x.id, (e.n - 1)::smallint, e.c->>'hex', (e.c->>'share')::real,
           (e.c->'lab'->>'l')::real, (e.c->'lab'->>'a')::real, (e.c->'lab'->>'b')::real
    FROM assets x, jsonb_array_elements(x.palette) WITH ORDINALITY AS e(c, n)
    WHERE x.palette IS NOT NULL AND jsonb_typeof(x.palette) = 'array' AND e.c ? 'lab' AND e.c ? 'hex'`.execute(db);

  // One index per order over listable assets; each ends in id, the tie-breaker.
  const listable = sql.raw("WHERE deleted_at IS NULL AND NOT is_temp");
  const orders: Array<[string, string]> = [
    ["assets_list_uploaded_idx", "date_uploaded, id"],
    ["assets_list_name_idx", "lower(name), id"],
    ["assets_list_size_idx", "size, id"],
    ["assets_list_taken_idx", "date_taken ASC NULLS LAST, id"],
    ["assets_list_taken_desc_idx", "date_taken DESC NULLS LAST, id DESC"],
    ["assets_list_type_idx", "file_type, id"],
  ];
  for (const [name, cols] of orders) {
    await sql`CREATE INDEX ${sql.raw(name)} ON assets (workspace_id, ${sql.raw(cols)}) ${listable}`.execute(db);
  }
  await sql`CREATE INDEX assets_list_ext_idx ON assets (workspace_id, lower(file_extension)) ${listable}`.execute(db);
  await sql`CREATE INDEX assets_list_camera_idx ON assets (workspace_id, lower(camera_make), lower(camera_model)) ${listable}`.execute(
    db,
  );
  await sql`CREATE INDEX assets_list_colors_idx ON assets USING gin (simplified_colors) ${listable}`.execute(db);
  await sql`CREATE INDEX ai_tags_ws_lower_label_idx ON ai_tags (workspace_id, lower(label))`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS assets_colors_fill ON assets`.execute(db);
  await sql`DROP TRIGGER IF EXISTS assets_search_fill ON assets`.execute(db);
  await sql`DROP TRIGGER IF EXISTS asset_tags_search_touch ON asset_tags`.execute(db);
  await sql`DROP TRIGGER IF EXISTS ai_tags_search_touch ON ai_tags`.execute(db);
  await sql`DROP TRIGGER IF EXISTS tags_search_touch ON tags`.execute(db);
  await db.schema.dropTable("asset_colors").ifExists().execute();
  for (const f of [
    "hangar_asset_colors_fill()",
    "hangar_tags_rename_touch()",
    "hangar_assets_search_touch()",
    "hangar_assets_search_fill()",
    "hangar_asset_tag_text(uuid)",
  ]) {
    await sql`DROP FUNCTION IF EXISTS ${sql.raw(f)}`.execute(db);
  }
  for (const i of [
    "assets_list_uploaded_idx",
    "assets_list_name_idx",
    "assets_list_size_idx",
    "assets_list_taken_idx",
    "assets_list_taken_desc_idx",
    "assets_list_type_idx",
    "assets_list_ext_idx",
    "assets_list_camera_idx",
    "assets_list_colors_idx",
    "ai_tags_ws_lower_label_idx",
  ]) {
    await sql`DROP INDEX IF EXISTS ${sql.raw(i)}`.execute(db);
  }
  await sql`ALTER TABLE assets DROP COLUMN IF EXISTS search_text, DROP COLUMN IF EXISTS search_vector`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_norm(text)`.execute(db);
}
