import { type Insertable, type Selectable, sql, type Updateable } from "kysely";
import type { Db } from "../../db/db.ts";
import type { AssetsTable } from "../../db/types.ts";
import type { AssetVersionsTable } from "../../db/types-versions.ts";

export type VersionRow = Selectable<AssetVersionsTable>;

/**
 * A version's file facts: what the pipeline finds in its bytes, and what the asset row copies from
 * its current version (migration 20261129-0001 names the same columns).
 */
export const VERSION_FACTS = [
  "status",
  "error_reason",
  "file_type",
  "mime_type",
  "file_extension",
  "size",
  "sha256",
  "storage_key",
  "directory",
  "width",
  "height",
  "duration",
  "page_count",
  "metadata",
  "placeholder",
  "renditions",
  "exif",
  "camera_make",
  "camera_model",
  "lens",
  "iso",
  "aperture",
  "exposure_time",
  "focal_length",
  "date_taken",
  "gps_latitude",
  "gps_longitude",
  "gps_altitude",
  "palette",
  "simplified_colors",
  "quality_contrast",
  "quality_sharpness",
  "quality_brightness",
  "processing_attempts",
  "processed_at",
  "duplicate_of",
] as const;
const FACT_SET: ReadonlySet<string> = new Set(VERSION_FACTS);
const JSON_COLUMNS = ["palette", "renditions", "exif", "metadata", "ai_tags", "duplicate_of"] as const;

/** node-pg sends JS arrays as PostgreSQL arrays; jsonb columns need JSON text. */
function withJson<T extends Record<string, unknown>>(patch: T): T {
  const out: Record<string, unknown> = { ...patch };
  for (const k of JSON_COLUMNS) if (out[k] !== undefined && out[k] !== null) out[k] = JSON.stringify(out[k]);
  return out as T;
}

/** The part of an asset-row patch that is a version's file facts. */
export function factsOf(patch: Updateable<AssetsTable>): Updateable<AssetVersionsTable> {
  return Object.fromEntries(Object.entries(patch).filter(([k]) => FACT_SET.has(k))) as Updateable<AssetVersionsTable>;
}

/** `SET col = v.col, …` for every fact, from the version aliased `v`. */
const copyFacts = sql.raw(VERSION_FACTS.map((c) => `${c} = v.${c}`).join(", "));

/** A user's display name (null: no such user, or no name and no e-mail). */
const personName = (alias: string) =>
  sql.raw(`CASE WHEN ${alias}.id IS NULL THEN NULL
    ELSE coalesce(nullif(trim(concat_ws(' ', ${alias}.first_name, ${alias}.last_name)), ''), ${alias}.email) END`);

/** The asset's current version id (null in the row: its first, whose id is the asset's). */
export const currentIdSql = (alias: string) => sql.raw(`coalesce(${alias}.current_version_id, ${alias}.id)`);

export const versionsRepo = {
  get(db: Db, versionId: string): Promise<VersionRow | undefined> {
    return db.selectFrom("asset_versions").selectAll().where("id", "=", versionId).executeTakeFirst();
  },

  /** An asset's version pointer (live or deleted; `lock`: until the transaction ends). */
  pointer(db: Db, assetId: string, lock = false) {
    const q = db
      .selectFrom("assets")
      .select(["id", "workspace_id", "current_version_id", "current_version_number", "deleted_at"])
      .where("id", "=", assetId);
    return (lock ? q.forUpdate() : q).executeTakeFirst();
  },

  /** One more processing attempt of a version; answers how many it has had. */
  async bumpAttempts(db: Db, versionId: string): Promise<number> {
    const r = await db
      .updateTable("asset_versions")
      .set((eb) => ({ processing_attempts: eb("processing_attempts", "+", 1) }))
      .where("id", "=", versionId)
      .returning("processing_attempts")
      .executeTakeFirst();
    return r?.processing_attempts ?? 0;
  },

  /** An abandoned version upload's row; only while it still waits for bytes. */
  async deleteUploading(tx: Db, assetId: string, versionId: string) {
    await tx
      .deleteFrom("asset_versions")
      .where("id", "=", versionId)
      .where("asset_id", "=", assetId)
      .where("status", "=", "uploading")
      .execute();
  },

  /** The live asset of the workspace, locked until the transaction ends: version changes go one at a time. */
  async lockAsset(tx: Db, workspaceId: string, assetId: string) {
    const r = await sql<{ id: string; workspace_id: string; name: string; current_id: string; current_number: number }>`
      SELECT id, workspace_id, name, ${currentIdSql("assets")} AS current_id, current_version_number AS current_number
      FROM assets WHERE id = ${assetId} AND workspace_id = ${workspaceId} AND deleted_at IS NULL
      FOR UPDATE`.execute(tx);
    return r.rows[0];
  },

  /** An asset's versions not deleted, newest first (brief). */
  live(db: Db, assetId: string) {
    return db
      .selectFrom("asset_versions")
      .select(["id", "number", "status", "created_at", "name"])
      .where("asset_id", "=", assetId)
      .where("deleted_at", "is", null)
      .orderBy("number", "desc")
      .execute();
  },

  /** The next number: never one a version had before, deleted ones included. */
  async nextNumber(tx: Db, assetId: string): Promise<number> {
    const r = await sql<{ n: number }>`
      SELECT coalesce(max(number), 0)::int + 1 AS n FROM asset_versions WHERE asset_id = ${assetId}`.execute(tx);
    return r.rows[0]?.n ?? 1;
  },

  async insert(tx: Db, row: Insertable<AssetVersionsTable>) {
    await tx.insertInto("asset_versions").values(withJson(row)).execute();
  },

  async update(db: Db, versionId: string, patch: Updateable<AssetVersionsTable>) {
    if (Object.keys(patch).length === 0) return;
    await db.updateTable("asset_versions").set(withJson(patch)).where("id", "=", versionId).execute();
  },

  /**
   * The asset row's copy of its current version, when `versionId` is that version: the same patch
   * (with the asset's own columns such as is_temp). False when the version is not current.
   */
  async updateIfCurrent(db: Db, assetId: string, versionId: string, patch: Updateable<AssetsTable>): Promise<boolean> {
    const r = await db
      .updateTable("assets")
      .set({ ...withJson(patch), updated_at: new Date() })
      .where("id", "=", assetId)
      .where(currentIdSql("assets"), "=", versionId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },

  /** Keeps the asset's AI tags (rows of `ai_tags`) with its current version before another takes its place. */
  async keepAiTags(tx: Db, assetId: string, versionId: string) {
    await sql`
      UPDATE asset_versions SET ai_tags = coalesce((
        SELECT jsonb_agg(jsonb_build_object('label', g.label, 'confidence', g.confidence, 'type', g.type)
                         ORDER BY g.confidence DESC)
        FROM ai_tags g WHERE g.asset_id = ${assetId}), '[]'::jsonb)
      WHERE id = ${versionId}`.execute(tx);
  },

  /**
   * Makes a version the asset's current one, in the caller's transaction: its facts become the
   * asset's (media, type, size, dimensions, metadata, upload date) and its AI tags the asset's
   * `ai_tags` rows. The caller keeps the previous current version's AI tags first (keepAiTags).
   */
  async promote(tx: Db, assetId: string, versionId: string, by: string | null) {
    await sql`
      UPDATE assets a SET ${copyFacts}, date_uploaded = v.created_at, is_temp = false,
        current_version_id = v.id, current_version_number = v.number, updated_at = now()
      FROM asset_versions v WHERE v.id = ${versionId} AND a.id = ${assetId}`.execute(tx);
    await tx.deleteFrom("ai_tags").where("asset_id", "=", assetId).execute();
    await sql`
      INSERT INTO ai_tags (asset_id, workspace_id, label, confidence, type)
      SELECT ${assetId}, v.workspace_id, t.label, t.confidence, coalesce(t.type, 'object')
      FROM asset_versions v, jsonb_to_recordset(coalesce(v.ai_tags, '[]'::jsonb)) AS t(label text, confidence real, type text)
      WHERE v.id = ${versionId}
      ON CONFLICT DO NOTHING`.execute(tx);
    await tx
      .updateTable("asset_versions")
      .set({ ai_tags: null, ...(by ? { made_current_at: new Date(), made_current_by: by } : {}) })
      .where("id", "=", versionId)
      .execute();
  },

  /** The asset's derived version columns, recounted: live versions, and a newer one not COMPLETED yet. */
  async refresh(tx: Db, assetId: string) {
    await sql`
      UPDATE assets a SET
        version_count = greatest(1, (SELECT count(*)::int FROM asset_versions v
          WHERE v.asset_id = a.id AND v.deleted_at IS NULL AND v.status <> 'uploading')),
        newer_version_id = (SELECT v.id FROM asset_versions v
          WHERE v.asset_id = a.id AND v.deleted_at IS NULL AND v.number > a.current_version_number
            AND v.status <> 'COMPLETED' ORDER BY v.number DESC LIMIT 1)
      WHERE a.id = ${assetId}`.execute(tx);
  },

  /**
   * Versions in the workspace holding these bytes, live or in Recently deleted, oldest first, with
   * their asset's name and live boards (`except`: the version being checked).
   */
  async withSha256(db: Db, workspaceId: string, sha256: string, except: string | null = null, limit = 20) {
    const r = await sql<{
      asset_id: string;
      version_id: string;
      version_number: number;
      name: string;
      deleted: boolean;
      boards: Array<{ id: string; name: string }>;
    }>`
      SELECT v.asset_id, v.id AS version_id, v.number AS version_number, a.name,
        (a.deleted_at IS NOT NULL OR v.deleted_at IS NOT NULL) AS deleted,
        coalesce((SELECT json_agg(json_build_object('id', b.id, 'name', b.name) ORDER BY b.name)
                  FROM board_assets ba JOIN boards b ON b.id = ba.board_id
                  WHERE ba.asset_id = a.id AND b.deleted_at IS NULL), '[]') AS boards
      FROM asset_versions v JOIN assets a ON a.id = v.asset_id
      WHERE v.workspace_id = ${workspaceId} AND v.sha256 = ${sha256}
        AND v.status IN ('processing', 'COMPLETED', 'error')
        AND (${except}::uuid IS NULL OR v.id <> ${except}::uuid)
      ORDER BY v.created_at, v.id
      LIMIT ${limit}`.execute(db);
    return r.rows;
  },

  /** What the media route needs of a media directory's owner: the version and its asset (deleted ones too). */
  async mediaOwner(db: Db, workspaceId: string, versionId: string) {
    const r = await sql<{
      asset_id: string;
      status: VersionRow["status"];
      mime_type: string;
      file_extension: string;
      name: string;
      deleted: boolean;
      is_current: boolean;
    }>`
      SELECT v.asset_id, v.status, v.mime_type, v.file_extension, a.name,
        (a.deleted_at IS NOT NULL OR v.deleted_at IS NOT NULL) AS deleted,
        v.id = ${currentIdSql("a")} AS is_current
      FROM asset_versions v JOIN assets a ON a.id = v.asset_id
      WHERE v.id = ${versionId} AND v.workspace_id = ${workspaceId}`.execute(db);
    return r.rows[0];
  },

  /**
   * Every live version of an asset for its answer, newest first: people's names and comment counts
   * with it (`board`: a share link's board context, whose threads alone are counted).
   */
  async listed(db: Db, assetId: string, board?: string | null) {
    const scope =
      board === undefined ? sql`` : board === null ? sql`AND c.board_id IS NULL` : sql`AND c.board_id = ${board}`;
    const r = await sql<
      VersionRow & {
        current_id: string;
        uploader_name: string | null;
        maker_name: string | null;
        comment_count: number;
        open_comment_count: number;
      }
    >`
      SELECT v.*, ${currentIdSql("a")} AS current_id,
        ${personName("up")} AS uploader_name, ${personName("mk")} AS maker_name,
        (SELECT count(*) FROM comments c WHERE c.version_id = v.id ${scope})::int AS comment_count,
        (SELECT count(*) FROM comments c WHERE c.version_id = v.id AND c.parent_id IS NULL
          AND c.resolved_at IS NULL ${scope})::int AS open_comment_count
      FROM asset_versions v JOIN assets a ON a.id = v.asset_id
      LEFT JOIN users up ON up.id = v.uploaded_by
      LEFT JOIN users mk ON mk.id = v.made_current_by
      WHERE v.asset_id = ${assetId} AND v.deleted_at IS NULL
      ORDER BY v.number DESC`.execute(db);
    return r.rows;
  },

  /** Marks a version deleted (Recently deleted). */
  async softDelete(tx: Db, versionId: string, userId: string, batch: string) {
    await tx
      .updateTable("asset_versions")
      .set({ deleted_at: new Date(), deleted_by: userId, delete_batch: batch })
      .where("id", "=", versionId)
      .execute();
  },
};
