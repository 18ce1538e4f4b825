import type { Insertable } from "kysely";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { ReviewDecisionsTable } from "../../db/types-reviews.ts";

/** A reviewer with the member's current name and address (members), as a review shows them. */
export interface ReviewerFact {
  id: string;
  stage: number;
  position: number;
  user_id: string | null;
  email: string | null;
  name: string;
  token: string | null;
  is_active: boolean;
  expires_at: Date | null;
  password_hash: string | null;
  waiting: number;
  asked_at: Date | null;
  removed_at: Date | null;
  /** A member's name and address now (null: an outsider, or a deleted account). */
  member_name: string | null;
  member_email: string | null;
}

/** An asset of a review with its current version (and whether it is still live). */
export interface ReviewAssetFact {
  asset_id: string;
  position: number;
  reset_seq: number;
  status: "in_review" | "approved" | "approved_with_changes" | "changes_requested" | "rejected";
  version_id: string | null;
  name: string;
  file_type: string;
  directory: string | null;
  current_version_id: string;
  current_version_number: number;
  live: boolean;
}

export interface DecisionFact {
  id: string;
  seq: number;
  asset_id: string;
  asset_name: string;
  version_id: string;
  version_number: number;
  reviewer_id: string;
  stage: number;
  decision: "approved" | "approved_with_changes" | "changes_requested" | "rejected";
  note: string | null;
  comment_id: string | null;
  created_at: Date;
}

export interface EventFact {
  id: string;
  seq: number;
  type: "created" | "edited" | "stage_started" | "reopened" | "canceled" | "completed" | "version";
  actor_name: string | null;
  stage: number | null;
  asset_ids: string[];
  detail: string | null;
  created_at: Date;
}

/** Everything a review is made of, read whole: for its state, its answer and its report. */
export const factsRepo = {
  async stages(db: Db, reviewId: string) {
    return db
      .selectFrom("review_stages")
      .select(["position", "rule", "started_at"])
      .where("review_id", "=", reviewId)
      .orderBy("position")
      .execute();
  },
  async reviewers(db: Db, reviewId: string): Promise<ReviewerFact[]> {
    const r = await sql<ReviewerFact>`
      SELECT rr.id, rr.stage, rr.position, rr.user_id, rr.email, rr.name, rr.token, rr.is_active, rr.expires_at,
        rr.password_hash, rr.waiting, rr.asked_at, rr.removed_at,
        CASE WHEN u.id IS NULL THEN NULL ELSE trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) END
          AS member_name,
        u.email AS member_email
      FROM review_reviewers rr LEFT JOIN users u ON u.id = rr.user_id
      WHERE rr.review_id = ${reviewId}
      ORDER BY rr.stage, rr.position, rr.created_at, rr.id`.execute(db);
    return r.rows;
  },
  async assets(db: Db, reviewId: string): Promise<ReviewAssetFact[]> {
    const r = await sql<ReviewAssetFact & { reset_seq: string }>`
      SELECT ra.asset_id, ra.position, ra.reset_seq, ra.status, ra.version_id, a.name, a.file_type, a.directory,
        coalesce(a.current_version_id, a.id) AS current_version_id, a.current_version_number,
        a.deleted_at IS NULL AS live
      FROM review_assets ra JOIN assets a ON a.id = ra.asset_id
      WHERE ra.review_id = ${reviewId}
      ORDER BY ra.position`.execute(db);
    return r.rows.map((a) => ({ ...a, reset_seq: Number(a.reset_seq) }));
  },
  async decisions(db: Db, reviewId: string): Promise<DecisionFact[]> {
    const rows = await db
      .selectFrom("review_decisions")
      .select([
        "id",
        "seq",
        "asset_id",
        "asset_name",
        "version_id",
        "version_number",
        "reviewer_id",
        "stage",
        "decision",
        "note",
        "comment_id",
        "created_at",
      ])
      .where("review_id", "=", reviewId)
      .orderBy("seq")
      .execute();
    return rows.map((d) => ({ ...d, seq: Number(d.seq) }));
  },
  async events(db: Db, reviewId: string): Promise<EventFact[]> {
    const rows = await db
      .selectFrom("review_events")
      .select(["id", "seq", "type", "actor_name", "stage", "asset_ids", "detail", "created_at"])
      .where("review_id", "=", reviewId)
      .orderBy("seq")
      .execute();
    return rows.map((e) => ({ ...e, seq: Number(e.seq) }));
  },
  async insertDecision(tx: Db, row: Insertable<ReviewDecisionsTable>): Promise<void> {
    await tx.insertInto("review_decisions").values(row).execute();
  },
  // ---- Versions (the assets module asks through the reviews service) ----
  /** The reviews (canceled ones aside) holding the asset, in id order (locked in that order). */
  async reviewsOf(db: Db, assetId: string) {
    return db
      .selectFrom("review_assets as ra")
      .innerJoin("reviews as r", "r.id", "ra.review_id")
      .select(["r.id", "r.workspace_id", "ra.version_id"])
      .where("ra.asset_id", "=", assetId)
      .where("r.canceled_at", "is", null)
      .orderBy("r.id")
      .execute();
  },
  /**
   * The review locking the asset: the latest review holding it (canceled ones aside), when it
   * approved the asset (on its current version) and locks on approval.
   */
  async lockedBy(db: Db, assetId: string): Promise<{ id: string; title: string } | undefined> {
    const r = await sql<{ id: string; title: string; status: string; lock_on_approval: boolean; same: boolean }>`
      SELECT r.id, r.title, ra.status, r.lock_on_approval,
        ra.version_id = (SELECT coalesce(a.current_version_id, a.id) FROM assets a WHERE a.id = ra.asset_id) AS same
      FROM review_assets ra JOIN reviews r ON r.id = ra.review_id
      WHERE ra.asset_id = ${assetId} AND r.canceled_at IS NULL
      ORDER BY r.created_at DESC, r.id DESC LIMIT 1`.execute(db);
    const row = r.rows[0];
    if (!row?.lock_on_approval || !row.same) return undefined;
    return row.status === "approved" || row.status === "approved_with_changes" ? row : undefined;
  },
};
