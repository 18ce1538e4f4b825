import type { Insertable, Selectable, Updateable } from "kysely";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type {
  ReviewAssetsTable,
  ReviewEventsTable,
  ReviewReviewersTable,
  ReviewStagesTable,
  ReviewsTable,
} from "../../db/types-reviews.ts";

export type ReviewRow = Selectable<ReviewsTable>;
export type ReviewerRow = Selectable<ReviewReviewersTable>;
/** A review link as its token opens it: the reviewer's row, in a live workspace. */
export type ReviewLinkRow = ReviewerRow;

/** Reviews, their stages, reviewers and assets: the rows themselves (facts-repo.ts reads them whole). */
export const reviewsRepo = {
  async insert(tx: Db, row: Insertable<ReviewsTable>): Promise<void> {
    await tx.insertInto("reviews").values(row).execute();
  },
  async insertStages(tx: Db, rows: Insertable<ReviewStagesTable>[]): Promise<void> {
    if (rows.length) await tx.insertInto("review_stages").values(rows).execute();
  },
  async insertReviewers(tx: Db, rows: Insertable<ReviewReviewersTable>[]): Promise<void> {
    if (rows.length) await tx.insertInto("review_reviewers").values(rows).execute();
  },
  async insertAssets(tx: Db, rows: Insertable<ReviewAssetsTable>[]): Promise<void> {
    if (rows.length) await tx.insertInto("review_assets").values(rows).execute();
  },
  /** One history entry; answers its place in the review's order (`seq`). */
  async event(tx: Db, row: Insertable<ReviewEventsTable>): Promise<number> {
    const r = await tx.insertInto("review_events").values(row).returning("seq").executeTakeFirstOrThrow();
    return Number(r.seq);
  },
  /** The review of the workspace, locked for the transaction's changes (they happen one after another). */
  async lock(tx: Db, workspaceId: string, reviewId: string): Promise<ReviewRow | undefined> {
    return tx
      .selectFrom("reviews")
      .selectAll()
      .where("id", "=", reviewId)
      .where("workspace_id", "=", workspaceId)
      .forUpdate()
      .executeTakeFirst();
  },
  async get(db: Db, workspaceId: string, reviewId: string): Promise<ReviewRow | undefined> {
    return db
      .selectFrom("reviews")
      .selectAll()
      .where("id", "=", reviewId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
  },
  async update(tx: Db, reviewId: string, patch: Updateable<ReviewsTable>): Promise<void> {
    await tx
      .updateTable("reviews")
      .set({ ...patch, updated_at: sql<Date>`now()` })
      .where("id", "=", reviewId)
      .execute();
  },
  /** Stages from `from` on are replaced (earlier ones are done and stay). */
  async replaceStagesFrom(tx: Db, reviewId: string, from: number, rows: Insertable<ReviewStagesTable>[]) {
    await tx.deleteFrom("review_stages").where("review_id", "=", reviewId).where("position", ">=", from).execute();
    if (rows.length) await tx.insertInto("review_stages").values(rows).execute();
  },
  async startStage(tx: Db, reviewId: string, position: number, at: Date): Promise<void> {
    await tx
      .updateTable("review_stages")
      .set({ started_at: at })
      .where("review_id", "=", reviewId)
      .where("position", "=", position)
      .where("started_at", "is", null)
      .execute();
  },
  async updateReviewer(tx: Db, id: string, patch: Updateable<ReviewReviewersTable>): Promise<void> {
    await tx.updateTable("review_reviewers").set(patch).where("id", "=", id).execute();
  },
  /** A new or removed password ends the unlocks made with the old one. */
  async bumpPassword(tx: Db, id: string): Promise<void> {
    await tx
      .updateTable("review_reviewers")
      .set((eb) => ({ password_version: eb("password_version", "+", 1) }))
      .where("id", "=", id)
      .execute();
  },
  async setWaiting(tx: Db, id: string, waiting: number): Promise<void> {
    await tx.updateTable("review_reviewers").set({ waiting }).where("id", "=", id).execute();
  },
  async setAssetDerived(
    tx: Db,
    reviewId: string,
    assetId: string,
    status: ReviewAssetsTable["status"]["__update__"],
    versionId: string,
  ) {
    await tx
      .updateTable("review_assets")
      .set({ status, version_id: versionId })
      .where("review_id", "=", reviewId)
      .where("asset_id", "=", assetId)
      .execute();
  },
  /** Decisions up to `seq` no longer count for these assets (a reopen). */
  async resetAssets(tx: Db, reviewId: string, assetIds: string[], seq: number): Promise<void> {
    if (assetIds.length === 0) return;
    await tx
      .updateTable("review_assets")
      .set({ reset_seq: seq })
      .where("review_id", "=", reviewId)
      .where("asset_id", "in", assetIds)
      .execute();
  },
  /** The link behind a token: a reviewer not removed, of a review in a live workspace. */
  async linkByToken(db: Db, token: string): Promise<ReviewLinkRow | undefined> {
    return db
      .selectFrom("review_reviewers as rr")
      .innerJoin("workspaces as w", "w.id", "rr.workspace_id")
      .selectAll("rr")
      .where("rr.token", "=", token)
      .where("rr.removed_at", "is", null)
      .where("w.deleted_at", "is", null)
      .executeTakeFirst();
  },
  // ---- What a new review names: members, assets, a board's assets ----
  /** Members of the workspace among these user ids, or with these addresses (lowercase). */
  async members(db: Db, workspaceId: string, ids: string[], emails: string[]) {
    if (ids.length === 0 && emails.length === 0) return [];
    return db
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select(["u.id", "u.email", "u.first_name", "u.last_name"])
      .where("m.workspace_id", "=", workspaceId)
      .where((eb) =>
        eb.or([
          ...(ids.length ? [eb("u.id", "in", ids)] : []),
          ...(emails.length ? [eb(sql<string>`lower(u.email)`, "in", emails)] : []),
        ]),
      )
      .execute();
  },
  /** Live, listable assets of the workspace among `ids` (with their current versions), in the order given. */
  async liveAssets(db: Db, workspaceId: string, ids: string[]) {
    if (ids.length === 0) return [];
    const rows = await db
      .selectFrom("assets")
      .select(["id", "name", sql<string>`coalesce(current_version_id, id)`.as("version_id")])
      .where("workspace_id", "=", workspaceId)
      .where("id", "in", ids)
      .where("deleted_at", "is", null)
      .where("is_temp", "=", false)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  },
  /** The live assets filed directly in a live board of the workspace, newest first; null: no such board. */
  async boardAssetIds(db: Db, workspaceId: string, boardId: string): Promise<string[] | null> {
    const board = await db
      .selectFrom("boards")
      .select("id")
      .where("id", "=", boardId)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!board) return null;
    const rows = await db
      .selectFrom("board_assets as ba")
      .innerJoin("assets as a", "a.id", "ba.asset_id")
      .select("a.id")
      .where("ba.board_id", "=", boardId)
      .where("a.deleted_at", "is", null)
      .where("a.is_temp", "=", false)
      .orderBy("a.date_uploaded", "desc")
      .orderBy("a.id", "desc")
      .limit(500)
      .execute();
    return rows.map((r) => r.id);
  },
  async workspaceName(db: Db, workspaceId: string): Promise<string> {
    const r = await db.selectFrom("workspaces").select("name").where("id", "=", workspaceId).executeTakeFirst();
    return r?.name ?? "";
  },
};
