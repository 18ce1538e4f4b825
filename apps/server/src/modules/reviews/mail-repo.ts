import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { ReviewRow } from "./repo.ts";

/** A claimed decision, for the requester's mail. */
export interface ClaimedDecision {
  id: string;
  reviewer_id: string;
  asset_name: string;
  version_number: number;
  decision: "approved" | "approved_with_changes" | "changes_requested" | "rejected";
  note: string | null;
  at_once: boolean;
  created_at: Date;
}

/**
 * Review mails are claimed before they are sent: each claim is one UPDATE that marks what it takes
 * (a reviewer asked, decisions mailed, a completion mailed, a reminder sent), so two senders (the
 * request that made the change and the scheduled sweep, in any process) never send one mail twice.
 */
export const mailRepo = {
  async review(db: Db, reviewId: string): Promise<ReviewRow | undefined> {
    return db.selectFrom("reviews").selectAll().where("id", "=", reviewId).executeTakeFirst();
  },
  /** Reviewers of the active stage of a review not canceled, not asked yet: now they are. */
  async claimAsked(db: Db, reviewId: string, now: Date) {
    const r = await sql<{ id: string }>`
      UPDATE review_reviewers rr SET asked_at = ${now}
      FROM reviews r, review_stages s
      WHERE rr.review_id = ${reviewId} AND r.id = rr.review_id AND s.review_id = rr.review_id
        AND s.position = rr.stage AND s.started_at IS NOT NULL AND rr.stage = r.active_stage
        AND r.canceled_at IS NULL AND rr.asked_at IS NULL AND rr.removed_at IS NULL
      RETURNING rr.id`.execute(db);
    return r.rows.map((x) => x.id);
  },
  /** Decisions not mailed yet that are due: the first of a window at once, the rest once the window ended. */
  async claimDecisions(db: Db, reviewId: string, now: Date): Promise<ClaimedDecision[]> {
    const r = await sql<ClaimedDecision>`
      UPDATE review_decisions d SET mailed_at = ${now}
      FROM reviews r
      WHERE d.review_id = ${reviewId} AND r.id = d.review_id AND d.mailed_at IS NULL
        AND (d.at_once OR r.digest_until <= ${now})
      RETURNING d.id, d.reviewer_id, d.asset_name, d.version_number, d.decision, d.note, d.at_once, d.created_at`.execute(
      db,
    );
    return r.rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  },
  /** The review became done since its last completion mail. */
  async claimDone(db: Db, reviewId: string, now: Date): Promise<boolean> {
    const r = await sql`
      UPDATE reviews SET done_mailed_at = ${now}
      WHERE id = ${reviewId} AND done_at IS NOT NULL AND canceled_at IS NULL
        AND (done_mailed_at IS NULL OR done_mailed_at < done_at)
      RETURNING id`.execute(db);
    return r.rows.length > 0;
  },
  /** Reviews due within 24 hours that still await decisions, reminded once. */
  async claimReminders(db: Db, now: Date): Promise<string[]> {
    const r = await sql<{ id: string }>`
      UPDATE reviews SET reminder_sent_at = ${now}
      WHERE due_at IS NOT NULL AND reminder_sent_at IS NULL AND canceled_at IS NULL AND done_at IS NULL
        AND due_at > ${now} AND due_at <= ${now}::timestamptz + interval '24 hours'
      RETURNING id`.execute(db);
    return r.rows.map((x) => x.id);
  },
  /** Reviews past their due date that still await decisions, told once (no reminder after that). */
  async claimOverdue(db: Db, now: Date): Promise<string[]> {
    const r = await sql<{ id: string }>`
      UPDATE reviews SET overdue_sent_at = ${now}, reminder_sent_at = coalesce(reminder_sent_at, ${now})
      WHERE due_at IS NOT NULL AND overdue_sent_at IS NULL AND canceled_at IS NULL AND done_at IS NULL
        AND due_at <= ${now}
      RETURNING id`.execute(db);
    return r.rows.map((x) => x.id);
  },
  /** Reviews with a mail to send now (a reviewer to ask, decisions due, a completion): the sweep's list. */
  async pending(db: Db, now: Date): Promise<string[]> {
    const r = await sql<{ id: string }>`
      SELECT rr.review_id AS id FROM review_reviewers rr
        JOIN reviews r ON r.id = rr.review_id
        JOIN review_stages s ON s.review_id = rr.review_id AND s.position = rr.stage
      WHERE rr.asked_at IS NULL AND rr.removed_at IS NULL AND s.started_at IS NOT NULL
        AND rr.stage = r.active_stage AND r.canceled_at IS NULL
      UNION
      SELECT d.review_id FROM review_decisions d JOIN reviews r ON r.id = d.review_id
      WHERE d.mailed_at IS NULL AND (d.at_once OR r.digest_until <= ${now})
      UNION
      SELECT id FROM reviews
      WHERE done_at IS NOT NULL AND canceled_at IS NULL AND (done_mailed_at IS NULL OR done_mailed_at < done_at)
      LIMIT 500`.execute(db);
    return r.rows.map((x) => x.id);
  },
};
