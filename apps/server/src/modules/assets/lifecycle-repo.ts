import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

/** A new asset row as uploads make it: waiting for bytes (`uploading`) or with them (`processing`). */
export interface NewAsset {
  id: string;
  workspaceId: string;
  name: string;
  extension: string;
  contentType: string;
  size: number;
  /** Known only when the bytes are already here (folder uploads). */
  sha256?: string;
  status: "uploading" | "processing";
  boardId: string | null;
  userId: string;
  directory: string;
  key: string;
}

/**
 * The asset rows' life outside the asset routes: created by uploads, filed on boards, deleted with a
 * board, restored and purged from Recently deleted. The assets feature owns these tables (docs/architecture.md
 * §3), so every other feature writes them through the assets service, which calls these. Each takes
 * `db` or a transaction, so a caller keeps its statements atomic with its own.
 */
export const lifecycleRepo = {
  /** The row and, when it is uploaded into a board, its membership of that board. */
  async insert(db: Db, a: NewAsset) {
    await db
      .insertInto("assets")
      .values({
        id: a.id,
        workspace_id: a.workspaceId,
        name: a.name,
        file_extension: a.extension,
        mime_type: a.contentType,
        size: a.size,
        ...(a.sha256 !== undefined ? { sha256: a.sha256 } : {}),
        ...(a.status === "processing" ? { status: "processing" as const } : {}),
        upload_board_id: a.boardId,
        uploaded_by: a.userId,
        directory: a.directory,
        storage_key: a.key,
      })
      .execute();
    if (a.boardId) {
      await db.insertInto("board_assets").values({ board_id: a.boardId, asset_id: a.id, added_by: a.userId }).execute();
    }
  },
  /** An abandoned upload's asset; only while it still waits for bytes. */
  async deleteUploading(db: Db, assetId: string) {
    await db.deleteFrom("assets").where("id", "=", assetId).where("status", "=", "uploading").execute();
  },
  /**
   * Soft-deletes the assets that live only inside these boards (a subtree being deleted): filed on one
   * of them and on no live board outside them. Answers how many.
   */
  async softDeleteOnlyIn(db: Db, workspaceId: string, boardIds: string[], userId: string, batch: string) {
    if (boardIds.length === 0) return 0;
    const r = await sql<{ n: number }>`
      WITH inside AS (SELECT DISTINCT asset_id FROM board_assets WHERE board_id = ANY(${boardIds}::uuid[])),
      elsewhere AS (
        SELECT DISTINCT ba.asset_id FROM board_assets ba JOIN boards b ON b.id = ba.board_id
        WHERE ba.asset_id IN (SELECT asset_id FROM inside) AND b.deleted_at IS NULL
          AND NOT (b.id = ANY(${boardIds}::uuid[]))
      ),
      gone AS (
        UPDATE assets SET deleted_at = now(), deleted_by = ${userId}, delete_batch = ${batch}
        WHERE id IN (SELECT asset_id FROM inside) AND id NOT IN (SELECT asset_id FROM elsewhere)
          AND workspace_id = ${workspaceId} AND deleted_at IS NULL
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM gone`.execute(db);
    return r.rows[0]?.n ?? 0;
  },
  /** Brings back every asset of a delete batch. */
  async restoreBatch(db: Db, workspaceId: string, batch: string): Promise<number> {
    const r = await db
      .updateTable("assets")
      .set({ deleted_at: null, deleted_by: null, delete_batch: null })
      .where("workspace_id", "=", workspaceId)
      .where("delete_batch", "=", batch)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  /** Brings back deleted assets by id. */
  async restore(db: Db, workspaceId: string, ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const r = await db
      .updateTable("assets")
      .set({ deleted_at: null, deleted_by: null, delete_batch: null })
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is not", null)
      .where("id", "in", ids)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  /**
   * Deletes deleted assets for good, by id or by delete batch; answers how many and the media
   * directories of all their versions (the versions go with them, by the foreign key's cascade).
   */
  async purge(
    db: Db,
    workspaceId: string,
    by: { ids: string[] } | { batches: string[] },
  ): Promise<{ count: number; directories: string[] }> {
    const ids = "ids" in by ? by.ids : by.batches;
    if (!ids.length) return { count: 0, directories: [] };
    const column = sql.raw("ids" in by ? "id" : "delete_batch");
    // One statement: its versions are read as they were before the delete (one snapshot for all of it).
    const r = await sql<{ directory: string | null; asset: boolean }>`
      WITH gone AS (
        DELETE FROM assets WHERE workspace_id = ${workspaceId} AND deleted_at IS NOT NULL
          AND ${column} = ANY(${ids}::uuid[])
        RETURNING id, directory
      )
      SELECT directory, true AS asset FROM gone
      UNION ALL
      SELECT v.directory, false FROM asset_versions v JOIN gone g ON g.id = v.asset_id
      WHERE v.directory IS DISTINCT FROM g.directory`.execute(db);
    const directories = [...new Set(r.rows.flatMap((x) => (x.directory ? [x.directory] : [])))];
    return { count: r.rows.filter((x) => x.asset).length, directories };
  },
  async addToBoard(db: Db, boardId: string, assetIds: string[], userId: string): Promise<number> {
    const r = await db
      .insertInto("board_assets")
      .values(assetIds.map((asset_id) => ({ board_id: boardId, asset_id, added_by: userId })))
      .onConflict((oc) => oc.columns(["board_id", "asset_id"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0);
  },
  async removeFromBoard(db: Db, boardId: string, assetIds: string[]): Promise<number> {
    const r = await db
      .deleteFrom("board_assets")
      .where("board_id", "=", boardId)
      .where("asset_id", "in", assetIds)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },
};
