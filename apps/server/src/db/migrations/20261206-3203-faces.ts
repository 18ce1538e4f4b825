import { type Kysely, sql } from "kysely";

/**
 * People (issue 32; docs/architecture.md §6.2): faces found in versions' pictures, grouped into people.
 *
 * - faces: one row per face of a version's picture (frame 0 the image / first page / poster, then
 *   pages or key frames), its box (fractions), quality and unit-length descriptor (real[1024]); its
 *   person, and whether a member put it there (`by_user`: the grouping job never moves it). Rows name
 *   the version: only an asset's current version counts (through assets.current_version_id).
 * - people: a workspace's people, named or not, with the mean of their faces' descriptors (the
 *   centroid a new face is compared with; people are few next to faces, read per workspace).
 * - face_rejections: "not this person", remembered for good.
 * - face_scans: which versions were looked at (the backfill looks at the others).
 * - face_settings: a workspace's switch (absent: on).
 *
 * Indexes: (person_id, version_id) for the listing's `people` filter and a person's faces;
 * version_id for an asset's faces; waiting faces per workspace for the grouping job.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE face_settings (
      workspace_id uuid PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
      enabled boolean NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE people (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text,
      hidden boolean NOT NULL DEFAULT false,
      cover_face_id uuid,
      centroid real[],
      centroid_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX people_workspace ON people (workspace_id)`.execute(db);
  await sql`
    CREATE TABLE faces (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      version_id uuid NOT NULL REFERENCES asset_versions(id) ON DELETE CASCADE,
      frame smallint NOT NULL,
      box real[] NOT NULL,
      quality real NOT NULL,
      descriptor real[],
      person_id uuid REFERENCES people(id) ON DELETE SET NULL,
      by_user boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX faces_person ON faces (person_id, version_id) WHERE person_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX faces_version ON faces (version_id)`.execute(db);
  await sql`CREATE INDEX faces_waiting ON faces (workspace_id, created_at)
    WHERE person_id IS NULL AND NOT by_user AND descriptor IS NOT NULL`.execute(db);
  // The listing's people filter reads faces: a change drops the workspace's cached waypoints (§4.2).
  await sql`CREATE TRIGGER faces_cache_notify AFTER INSERT OR UPDATE OR DELETE ON faces
    FOR EACH ROW EXECUTE FUNCTION hangar_cache_by_workspace()`.execute(db);
  await sql`ALTER TABLE people ADD CONSTRAINT people_cover_face
    FOREIGN KEY (cover_face_id) REFERENCES faces(id) ON DELETE SET NULL`.execute(db);
  await sql`
    CREATE TABLE face_rejections (
      face_id uuid NOT NULL REFERENCES faces(id) ON DELETE CASCADE,
      person_id uuid NOT NULL REFERENCES people(id) ON DELETE CASCADE,
      PRIMARY KEY (face_id, person_id)
    )`.execute(db);
  await sql`CREATE INDEX face_rejections_person ON face_rejections (person_id)`.execute(db);
  await sql`
    CREATE TABLE face_scans (
      version_id uuid PRIMARY KEY REFERENCES asset_versions(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      face_count integer NOT NULL,
      error text,
      scanned_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX face_scans_workspace ON face_scans (workspace_id)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["face_scans", "face_rejections"]) await sql`DROP TABLE IF EXISTS ${sql.raw(t)}`.execute(db);
  await sql`ALTER TABLE IF EXISTS people DROP CONSTRAINT IF EXISTS people_cover_face`.execute(db);
  for (const t of ["faces", "people", "face_settings"]) await sql`DROP TABLE IF EXISTS ${sql.raw(t)}`.execute(db);
}
