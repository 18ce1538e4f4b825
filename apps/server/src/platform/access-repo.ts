import type { Role } from "@hangar/contract";
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
  show_versions: boolean;
}

/**
 * Every query the access layer makes (platform/access.ts): a member's role, whether two people share
 * a workspace, and whether content lies inside what a share link shares (one statement each, the
 * board subtree by recursive CTE).
 */
export const accessRepo = {
  /** The user's role in a live (not deleted) workspace, or null when they are not a member. */
  async role(db: Db, userId: string, workspaceId: string): Promise<Role | null> {
    const row = await db
      .selectFrom("memberships as m")
      .innerJoin("workspaces as w", "w.id", "m.workspace_id")
      .select("m.role")
      .where("m.workspace_id", "=", workspaceId)
      .where("m.user_id", "=", userId)
      .where("w.deleted_at", "is", null)
      .executeTakeFirst();
    return row?.role ?? null;
  },
  /** Whether two people are members of one live workspace (they may see each other's name and avatar). */
  async shareWorkspace(db: Db, a: string, b: string): Promise<boolean> {
    const row = await db
      .selectFrom("memberships as m1")
      .innerJoin("memberships as m2", "m2.workspace_id", "m1.workspace_id")
      .innerJoin("workspaces as w", "w.id", "m1.workspace_id")
      .select("m1.workspace_id")
      .where("m1.user_id", "=", a)
      .where("m2.user_id", "=", b)
      .where("w.deleted_at", "is", null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },
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
        "l.show_versions",
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
