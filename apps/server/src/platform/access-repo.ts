import type { Role, Watermark } from "@hangar/contract";
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
  content_type: "asset" | "board" | "review";
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
  /** Issue 33: what visitors' pictures carry (a review link has none). */
  watermark?: Watermark | null;
  watermark_hash?: string | null;
}

/** What an outside reviewer may do on the review's assets: read and write comments, no more. */
export const REVIEWER_FLAGS = {
  allow_commenting: true,
  show_comments: true,
  show_custom_fields: false,
  allow_editing_custom_fields: false,
  allow_downloads: false,
  show_versions: false,
} as const;

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
        "l.watermark",
        "l.watermark_hash",
      ])
      .where("l.id", "=", linkId)
      .where("w.deleted_at", "is", null)
      .executeTakeFirst() as Promise<ShareLinkState | undefined>;
  },
  /**
   * An outside reviewer's link (issue 30) as a URL's check needs it: the review it opens, its gate,
   * and the flags a reviewer has (comments to read and write, nothing else). A removed reviewer's
   * link opens nothing.
   */
  async reviewLink(db: Db, linkId: string): Promise<ShareLinkState | undefined> {
    const row = await db
      .selectFrom("review_reviewers as rr")
      .innerJoin("workspaces as w", "w.id", "rr.workspace_id")
      .select(["rr.id", "rr.workspace_id", "rr.review_id", "rr.is_active", "rr.expires_at", "rr.password_version"])
      .where("rr.id", "=", linkId)
      .where("rr.token", "is not", null)
      .where("rr.removed_at", "is", null)
      .where("w.deleted_at", "is", null)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      workspace_id: row.workspace_id,
      content_type: "review",
      object_id: row.review_id,
      board_id: null,
      is_active: row.is_active,
      expires_at: row.expires_at,
      password_version: row.password_version,
      ...REVIEWER_FLAGS,
    };
  },
  /** The live asset is one of the review's. */
  async assetInReview(db: Db, workspaceId: string, reviewId: string, assetId: string): Promise<boolean> {
    const row = await db
      .selectFrom("review_assets as ra")
      .innerJoin("assets as a", "a.id", "ra.asset_id")
      .select("a.id")
      .where("ra.review_id", "=", reviewId)
      .where("ra.asset_id", "=", assetId)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .executeTakeFirst();
    return row !== undefined;
  },
  /** When the asset's usage rights expire (issue 33), or null: never. */
  async rightsEnd(db: Db, assetId: string): Promise<Date | null> {
    const row = await db.selectFrom("asset_rights").select("expire_at").where("id", "=", assetId).executeTakeFirst();
    return row?.expire_at ?? null;
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
