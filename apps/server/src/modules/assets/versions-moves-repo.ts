import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

const who = sql<string | null>`nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '')`;

/**
 * Versions changing hands (stack, detach) and versions in Recently deleted. Each runs in the caller's
 * transaction, after the assets concerned are locked (versionsRepo.lockAsset).
 */
export const versionMovesRepo = {
  /**
   * Keeps each asset's AI tags (its `ai_tags` rows) with its current version: before the current
   * version changes or the asset goes, as the version's own.
   */
  async keepCurrentAiTags(tx: Db, assetIds: string[]) {
    await sql`
      UPDATE asset_versions v SET ai_tags = coalesce((
        SELECT jsonb_agg(jsonb_build_object('label', g.label, 'confidence', g.confidence, 'type', g.type)
                         ORDER BY g.confidence DESC)
        FROM ai_tags g WHERE g.asset_id = a.id), '[]'::jsonb)
      FROM assets a
      WHERE a.id = ANY(${assetIds}::uuid[]) AND v.id = coalesce(a.current_version_id, a.id)`.execute(tx);
  },

  /** Any version of these assets still uploading or processing (its upload or job names the asset). */
  async busy(tx: Db, assetIds: string[]): Promise<string[]> {
    const r = await sql<{ asset_id: string }>`
      SELECT DISTINCT asset_id FROM asset_versions
      WHERE asset_id = ANY(${assetIds}::uuid[]) AND deleted_at IS NULL AND status IN ('uploading', 'processing')`.execute(
      tx,
    );
    return r.rows.map((x) => x.asset_id);
  },

  /**
   * Every version of `others` becomes the target's; all the target's versions are numbered again by
   * upload time (through negative numbers, so no two ever share one on the way). Comments are moved by
   * the comments feature; the stacked assets are deleted afterwards (stackedGone).
   */
  async stack(tx: Db, targetId: string, others: string[]) {
    const all = [targetId, ...others];
    await sql`
      UPDATE asset_versions v SET asset_id = ${targetId}, number = -o.n
      FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n
            FROM asset_versions WHERE asset_id = ANY(${all}::uuid[])) o
      WHERE v.id = o.id`.execute(tx);
    await sql`UPDATE asset_versions SET number = -number WHERE asset_id = ${targetId}`.execute(tx);
  },

  /** The stacked assets themselves, once their versions and comments are the target's. */
  async stackedGone(tx: Db, workspaceId: string, assetIds: string[]) {
    await tx.deleteFrom("assets").where("workspace_id", "=", workspaceId).where("id", "in", assetIds).execute();
  },

  /** The newest live version of an asset in one of these states (by number), or undefined. */
  async newest(tx: Db, assetId: string, statuses: string[], except: string | null = null) {
    const r = await sql<{ id: string }>`
      SELECT id FROM asset_versions
      WHERE asset_id = ${assetId} AND deleted_at IS NULL AND status = ANY(${statuses}::text[])
        AND (${except}::uuid IS NULL OR id <> ${except}::uuid)
      ORDER BY number DESC LIMIT 1`.execute(tx);
    return r.rows[0]?.id;
  },

  /**
   * A version leaves its asset as an asset of its own (`newAssetId`), named as its file was, filed on
   * the live boards of the asset it leaves. Its facts and AI tags are then copied by promote().
   */
  async detach(tx: Db, versionId: string, fromAssetId: string, newAssetId: string, userId: string) {
    await sql`
      INSERT INTO assets (id, workspace_id, name, uploaded_by, date_uploaded, current_version_id, is_temp)
      SELECT ${newAssetId}, v.workspace_id, v.name, v.uploaded_by, v.created_at, v.id, false
      FROM asset_versions v WHERE v.id = ${versionId}`.execute(tx);
    await tx
      .updateTable("asset_versions")
      .set({ asset_id: newAssetId, number: 1 })
      .where("id", "=", versionId)
      .execute();
    await sql`
      INSERT INTO board_assets (board_id, asset_id, added_by)
      SELECT ba.board_id, ${newAssetId}, ${userId} FROM board_assets ba JOIN boards b ON b.id = ba.board_id
      WHERE ba.asset_id = ${fromAssetId} AND b.deleted_at IS NULL`.execute(tx);
  },

  /** Whether an asset row with this id exists (live or deleted). */
  async assetExists(tx: Db, id: string): Promise<boolean> {
    return !!(await tx.selectFrom("assets").select("id").where("id", "=", id).executeTakeFirst());
  },

  // ---- Recently deleted ----

  /** Versions deleted on their own whose asset is live, newest deletion first. */
  deleted(db: Db, workspaceId: string) {
    return db
      .selectFrom("asset_versions as v")
      .innerJoin("assets as a", "a.id", "v.asset_id")
      .leftJoin("users as u", "u.id", "v.deleted_by")
      .select([
        "v.id",
        "v.asset_id",
        "v.number",
        "a.name",
        "v.file_type",
        "v.directory",
        "v.renditions",
        "v.deleted_at",
        "v.delete_batch",
        "u.id as by_id",
        "u.email as by_email",
        who.as("by_name"),
      ])
      .where("v.workspace_id", "=", workspaceId)
      .where("v.deleted_at", "is not", null)
      .where("a.deleted_at", "is", null)
      .orderBy("v.deleted_at", "desc")
      .limit(1000)
      .execute();
  },

  /** Brings deleted versions back into their assets; answers the assets concerned. */
  async restore(tx: Db, workspaceId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await tx
      .updateTable("asset_versions")
      .set({ deleted_at: null, deleted_by: null, delete_batch: null })
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is not", null)
      .where("id", "in", ids)
      .returning("asset_id")
      .execute();
    return rows.map((r) => r.asset_id);
  },

  /** Deletes deleted versions for good (their comments with them); answers their assets and directories. */
  async purge(tx: Db, workspaceId: string, ids: string[]) {
    if (!ids.length) return [];
    return tx
      .deleteFrom("asset_versions")
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is not", null)
      .where("id", "in", ids)
      .returning(["asset_id", "directory"])
      .execute();
  },

  /** Versions deleted before the cutoff, for the auto-purge job. */
  expired(db: Db, cutoff: Date) {
    return db
      .selectFrom("asset_versions")
      .select(["id", "workspace_id"])
      .where("deleted_at", "<", cutoff)
      .limit(5000)
      .execute();
  },
};
