import { type Kysely, sql } from "kysely";

/**
 * Listing at a million assets: combinations of tags, AI labels, simplified colours and file type
 * (issue 19's remaining misses, bench/listing). Each has its own index (GIN on the tag and label
 * arrays and on the colour names, btree on the type), but a probe of "tag7 and IMAGE" could use only
 * one of them: it fetched all 20,000 assets tagged tag7 to find that none is an image (70–280 ms), and
 * arrays cannot carry extended statistics to tell the planner so. `assets_list_facets_idx` indexes
 * them together, as prefixed elements of one array (`t:` manual tag, `l:` AI label, `c:` colour name,
 * `f:` file type): GIN intersects the posting lists ("tag7" with "IMAGE") without a heap fetch, 4–25 ms
 * where they share no asset, ~2 ms for "red + DOCUMENT + tag3". The listing adds the facet condition,
 * implied by the filter, to its probe and count when a filter combines two facets or more
 * (filters-repo.ts facetsCond). About 12 s to build on a million assets, 6 MB.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION hangar_listing_facets(tag_names text[], ai_labels text[], colors text[], file_type text)
    RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT ARRAY(SELECT 't:' || x FROM unnest(tag_names) x)
          || ARRAY(SELECT 'l:' || x FROM unnest(ai_labels) x)
          || ARRAY(SELECT 'c:' || x FROM unnest(colors) x)
          || ARRAY['f:' || file_type]
    $$`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS assets_list_facets_idx ON assets
            USING gin (hangar_listing_facets(tag_names, ai_labels, simplified_colors, file_type))
            WHERE deleted_at IS NULL AND NOT is_temp`.execute(db);
  await sql`ANALYZE assets`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS assets_list_facets_idx`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_listing_facets(text[], text[], text[], text)`.execute(db);
}
