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

/** What the access layer needs of a share link to judge a URL issued to it. */
export interface ShareLinkState {
  id: string;
  workspace_id: string;
  content_type: "asset" | "board";
  object_id: string;
  board_id: string | null;
  is_active: boolean;
  expires_at: Date | null;
  password_version: number;
  allow_commenting: boolean;
  show_comments: boolean;
  show_custom_fields: boolean;
  allow_editing_custom_fields: boolean;
  allow_downloads: boolean;
}

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
  /** The live asset is filed in the live board (an asset link's context). */
  async assetInBoard(db: Db, workspaceId: string, assetId: string, boardId: string): Promise<boolean> {
    const row = await db
      .selectFrom("board_assets as ba")
      .innerJoin("assets as a", "a.id", "ba.asset_id")
      .innerJoin("boards as b", "b.id", "ba.board_id")
      .select("a.id")
      .where("ba.asset_id", "=", assetId)
      .where("ba.board_id", "=", boardId)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .where("b.deleted_at", "is", null)
      .executeTakeFirst();
    return row !== undefined;
  },
  /** A share link's state, in a live workspace (a link of a deleted workspace opens nothing). */
  async shareLink(db: Db, linkId: string): Promise<ShareLinkState | undefined> {
    return db
      .selectFrom("share_links as l")
      .innerJoin("workspaces as w", "w.id", "l.workspace_id")
      .select([
        "l.id",
        "l.workspace_id",
        "l.content_type",
        "l.object_id",
        "l.board_id",
        "l.is_active",
        "l.expires_at",
        "l.password_version",
        "l.allow_commenting",
        "l.show_comments",
        "l.show_custom_fields",
        "l.allow_editing_custom_fields",
        "l.allow_downloads",
      ])
      .where("l.id", "=", linkId)
      .where("w.deleted_at", "is", null)
      .executeTakeFirst() as Promise<ShareLinkState | undefined>;
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
