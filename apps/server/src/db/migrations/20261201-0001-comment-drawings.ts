import { type Kysely, sql } from "kysely";

/**
 * Drawings on comments (issue 31): an annotation may be a DRAWING whose shapes (pen strokes, lines,
 * arrows, rectangles, ellipses in percent of the picture) live in one `json` column, checked by the
 * contract (`DrawingShapesInput`) before they are written and read back through it. `json`, not
 * `jsonb`: it is only ever written and read whole, and its text (rounded coordinates) is smaller than
 * jsonb's numerics and is compressed with the row when long. The checks here hold the outline: shapes
 * exactly on drawings, an array of 1 to 50.
 *
 * The constraints are added NOT VALID and validated apart, so a large comments table is scanned under
 * a lock that lets reads and writes go on.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE comments ADD COLUMN shapes json`.execute(db);
  await sql`ALTER TABLE comments DROP CONSTRAINT comments_annotation_type_check`.execute(db);
  await sql`
    ALTER TABLE comments ADD CONSTRAINT comments_annotation_type_check
      CHECK (annotation_type IN ('NONE', 'POINT', 'AREA', 'DRAWING')) NOT VALID`.execute(db);
  await sql`
    ALTER TABLE comments ADD CONSTRAINT comments_shapes_check
      CHECK ((shapes IS NOT NULL) = (annotation_type = 'DRAWING')
        AND (shapes IS NULL OR (json_typeof(shapes) = 'array' AND json_array_length(shapes) BETWEEN 1 AND 50)))
      NOT VALID`.execute(db);
  await sql`ALTER TABLE comments VALIDATE CONSTRAINT comments_annotation_type_check`.execute(db);
  await sql`ALTER TABLE comments VALIDATE CONSTRAINT comments_shapes_check`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  // A drawing becomes the point its number was pinned at (its x and y): the comment and its thread stay.
  await sql`UPDATE comments SET annotation_type = 'POINT' WHERE annotation_type = 'DRAWING'`.execute(db);
  await sql`ALTER TABLE comments DROP CONSTRAINT IF EXISTS comments_shapes_check`.execute(db);
  await sql`ALTER TABLE comments DROP COLUMN IF EXISTS shapes`.execute(db);
  await sql`ALTER TABLE comments DROP CONSTRAINT comments_annotation_type_check`.execute(db);
  await sql`
    ALTER TABLE comments ADD CONSTRAINT comments_annotation_type_check
      CHECK (annotation_type IN ('NONE', 'POINT', 'AREA'))`.execute(db);
}
