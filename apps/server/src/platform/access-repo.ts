import type { Db } from "../db/db.ts";

/** The live boards of the subtree rooted at `rootBoardId` (itself included), as the CTE `sub(id)`. */
const subtree = (db: Db, workspaceId: string, rootBoardId: string) =>
  db.withRecursive("sub(id)", (q) =>
    q
      .selectFrom("boards")
      .select("id")
      .where("id", "=", rootBoardId)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .unionAll((u) =>
        u
          .selectFrom("boards as b")
          .innerJoin("sub", "sub.id", "b.parent_id")
          .select("b.id")
          .where("b.deleted_at", "is", null),
      ),
  );

/** Whether content lies inside what a share link shares: one statement, the board subtree by recursive CTE. */
export const accessRepo = {
  async assetInBoardSubtree(db: Db, workspaceId: string, rootBoardId: string, assetId: string): Promise<boolean> {
    const row = await subtree(db, workspaceId, rootBoardId)
      .selectFrom("board_assets as ba")
      .innerJoin("sub", "sub.id", "ba.board_id")
      .innerJoin("assets as a", "a.id", "ba.asset_id")
      .select("a.id")
      .where("a.id", "=", assetId)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },
  async boardInSubtree(db: Db, workspaceId: string, rootBoardId: string, boardId: string): Promise<boolean> {
    const row = await subtree(db, workspaceId, rootBoardId)
      .selectFrom("sub")
      .select("sub.id")
      .where("sub.id", "=", boardId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },
  async liveAsset(db: Db, workspaceId: string, assetId: string): Promise<boolean> {
    const row = await db
      .selectFrom("assets as a")
      .innerJoin("workspaces as w", "w.id", "a.workspace_id")
      .select("a.id")
      .where("a.id", "=", assetId)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .where("w.deleted_at", "is", null)
      .executeTakeFirst();
    return row !== undefined;
  },
};
