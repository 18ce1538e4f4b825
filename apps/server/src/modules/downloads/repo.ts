import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

/** What the zip needs of an asset: its name, the type to choose store or deflate, where its bytes are. */
export interface DownloadableAsset {
  id: string;
  name: string;
  file_extension: string;
  mime_type: string;
  size: number;
  directory: string;
  /** When its usage rights expire (issue 33), or null. */
  rights_expire_at: Date | null;
}

/** A board as it appears in one download: `key` is its id path from a selected board, so a board reached twice is two folders. */
export interface BoardNode {
  key: string;
  parent_key: string | null;
  id: string;
  name: string;
}

const ASSET_COLUMNS = [
  "a.id",
  "a.name",
  "a.file_extension",
  "a.mime_type",
  "a.size",
  "a.directory",
  "r.expire_at as rights_expire_at",
] as const;

export const downloadsRepo = {
  /**
   * Live assets of the workspace that have bytes: completed, or still processing (the original is
   * already stored then). Ids not answered are missing, deleted, foreign or have no bytes.
   */
  async downloadableAssets(db: Db, workspaceId: string, assetIds: string[]): Promise<DownloadableAsset[]> {
    if (assetIds.length === 0) return [];
    const rows = await db
      .selectFrom("assets as a")
      .leftJoin("asset_rights as r", "r.id", "a.id")
      .select(ASSET_COLUMNS)
      .where("a.id", "in", assetIds)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .where("a.status", "in", ["COMPLETED", "processing"])
      .where("a.directory", "is not", null)
      .execute();
    return rows as DownloadableAsset[];
  },

  /**
   * One version of a live asset of the workspace, when it has bytes (completed or processing) and is
   * not deleted: named as the asset, typed as the version's file.
   */
  async downloadableVersion(
    db: Db,
    workspaceId: string,
    assetId: string,
    versionId: string,
  ): Promise<DownloadableAsset | undefined> {
    const row = await db
      .selectFrom("asset_versions as v")
      .innerJoin("assets as a", "a.id", "v.asset_id")
      .leftJoin("asset_rights as r", "r.id", "a.id")
      .select([
        "a.id",
        "a.name",
        "v.file_extension",
        "v.mime_type",
        "v.size",
        "v.directory",
        "r.expire_at as rights_expire_at",
      ])
      .where("v.id", "=", versionId)
      .where("v.asset_id", "=", assetId)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .where("v.deleted_at", "is", null)
      .where("v.status", "in", ["COMPLETED", "processing"])
      .where("v.directory", "is not", null)
      .executeTakeFirst();
    return row as DownloadableAsset | undefined;
  },

  /** Live boards of the workspace among `boardIds`, with their names. */
  liveBoards(db: Db, workspaceId: string, boardIds: string[]) {
    if (boardIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom("boards")
      .select(["id", "name"])
      .where("id", "in", boardIds)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .execute();
  },

  /**
   * The selected boards and (with `includeSubboards`) their live sub-boards, in one recursive CTE,
   * in pre-order: selected boards in the order given, children by position. Parents come before
   * their children, so folder names can be given out in one pass.
   */
  async boardNodes(db: Db, workspaceId: string, boardIds: string[], includeSubboards: boolean): Promise<BoardNode[]> {
    if (boardIds.length === 0) return [];
    const r = await sql<BoardNode>`
      WITH RECURSIVE t AS (
        SELECT b.id, b.name, b.id::text AS key, NULL::text AS parent_key, ARRAY[sel.ord::int] AS sort
        FROM unnest(${sql.val(boardIds)}::uuid[]) WITH ORDINALITY AS sel(id, ord)
        JOIN boards b ON b.id = sel.id
        WHERE b.workspace_id = ${workspaceId} AND b.deleted_at IS NULL
        UNION ALL
        SELECT c.id, c.name, t.key || '/' || c.id, t.key, t.sort || c.position
        FROM boards c JOIN t ON c.parent_id = t.id
        WHERE ${includeSubboards} AND c.deleted_at IS NULL AND cardinality(t.sort) < 64
      )
      SELECT key, parent_key, id, name FROM t ORDER BY sort`.execute(db);
    return r.rows;
  },

  /** Downloadable assets of some boards (board_assets' primary key leads with board_id), by name. */
  async boardAssets(
    db: Db,
    workspaceId: string,
    boardIds: string[],
  ): Promise<Array<DownloadableAsset & { board_id: string }>> {
    if (boardIds.length === 0) return [];
    const rows = await db
      .selectFrom("board_assets as ba")
      .innerJoin("assets as a", "a.id", "ba.asset_id")
      .leftJoin("asset_rights as r", "r.id", "a.id")
      .select(["ba.board_id", ...ASSET_COLUMNS])
      // One array parameter, however many sub-boards (an IN list would need one parameter each).
      .where(sql<boolean>`ba.board_id = any(${boardIds}::uuid[])`)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .where("a.status", "in", ["COMPLETED", "processing"])
      .where("a.directory", "is not", null)
      .orderBy("a.name")
      .orderBy("a.id")
      .execute();
    return rows as Array<DownloadableAsset & { board_id: string }>;
  },
};
