import { type Kysely, sql } from "kysely";

/**
 * Tag filters at a million assets: `assets.tag_names` (lower-cased manual tag names) and
 * `assets.ai_labels` (lower-cased AI labels), each with a GIN index over listable assets.
 *
 * Through the join tables, the planner could not know how many assets a tag has (the name is resolved
 * to an id only at run time), so it assumed the average and walked the upload-date index probing
 * each asset: fine for a tag on 2% of assets, 0.5 s for a tag on 100 of a million. On arrays, the
 * tag names are constants it has per-element statistics for: a rare tag is read from the GIN index
 * (then sorted), a common one by walking the order index; and the counts it estimates are right.
 *
 * The search trigger (migration 0005) already runs when tags change (the tag triggers touch the asset),
 * so it fills both arrays with the search text.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE assets ADD COLUMN tag_names text[] NOT NULL DEFAULT '{}', ADD COLUMN ai_labels text[] NOT NULL DEFAULT '{}'`.execute(
    db,
  );
  await sql`
    CREATE OR REPLACE FUNCTION hangar_assets_search_fill() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE raw text;
    BEGIN
      raw := concat_ws(' ', NEW.name, NEW.description, NEW.camera_make, NEW.camera_model, NEW.lens,
                       hangar_asset_tag_text(NEW.id));
      NEW.search_text := hangar_norm(raw);
      NEW.search_vector := to_tsvector('english', NEW.search_text);
      NEW.tag_names := coalesce((SELECT array_agg(DISTINCT lower(t.name)) FROM asset_tags at
                                 JOIN tags t ON t.id = at.tag_id WHERE at.asset_id = NEW.id), '{}');
      NEW.ai_labels := coalesce((SELECT array_agg(DISTINCT lower(g.label)) FROM ai_tags g WHERE g.asset_id = NEW.id), '{}');
      RETURN NEW;
    END $$`.execute(db);

  // Backfill in one pass over the tagged assets (one new row version each); the listable set does not
  // change, so the day counts' trigger (which would copy every row into its transition tables) sits
  // this out. A VACUUM afterwards (autovacuum will) restores index-only scans.
  await sql`ALTER TABLE assets DISABLE TRIGGER assets_list_days_update`.execute(db);
  await sql`SET LOCAL work_mem = '256MB'`.execute(db);
  await sql`
    UPDATE assets a SET tag_names = coalesce(x.names, '{}'), ai_labels = coalesce(y.labels, '{}')
    FROM (SELECT asset_id AS id FROM asset_tags UNION SELECT asset_id FROM ai_tags) z
    LEFT JOIN (SELECT at.asset_id, array_agg(DISTINCT lower(t.name)) AS names
               FROM asset_tags at JOIN tags t ON t.id = at.tag_id GROUP BY at.asset_id) x ON x.asset_id = z.id
    LEFT JOIN (SELECT asset_id, array_agg(DISTINCT lower(label)) AS labels FROM ai_tags GROUP BY asset_id) y
      ON y.asset_id = z.id
    WHERE a.id = z.id`.execute(db);
  await sql`ALTER TABLE assets ENABLE TRIGGER assets_list_days_update`.execute(db);

  const listable = sql.raw("WHERE deleted_at IS NULL AND NOT is_temp");
  await sql`CREATE INDEX assets_list_tag_names_idx ON assets USING gin (tag_names) ${listable}`.execute(db);
  await sql`CREATE INDEX assets_list_ai_labels_idx ON assets USING gin (ai_labels) ${listable}`.execute(db);
  await sql`ANALYZE assets`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION hangar_assets_search_fill() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE raw text;
    BEGIN
      raw := concat_ws(' ', NEW.name, NEW.description, NEW.camera_make, NEW.camera_model, NEW.lens,
                       hangar_asset_tag_text(NEW.id));
      NEW.search_text := hangar_norm(raw);
      NEW.search_vector := to_tsvector('english', NEW.search_text);
      RETURN NEW;
    END $$`.execute(db);
  await sql`DROP INDEX IF EXISTS assets_list_tag_names_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS assets_list_ai_labels_idx`.execute(db);
  await sql`ALTER TABLE assets DROP COLUMN IF EXISTS tag_names, DROP COLUMN IF EXISTS ai_labels`.execute(db);
}
