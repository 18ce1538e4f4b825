import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { SummaryRow } from "./serialize.ts";

export interface ReviewListFilter {
  workspaceId: string;
  userId: string;
  waitingForMe: boolean;
  requestedByMe: boolean;
  state?: string;
  dueBefore?: Date;
  assetId?: string;
  limit: number;
  offset: number;
}

/** The reviews list and the few lookups a review's answer needs beside its facts. */
export const listRepo = {
  /** One page of the workspace's reviews, newest first, with their progress, and how many match in all. */
  async list(db: Db, f: ReviewListFilter): Promise<{ rows: SummaryRow[]; total: number }> {
    const conds: RawBuilder<SqlBool>[] = [sql<SqlBool>`r.workspace_id = ${f.workspaceId}`];
    if (f.waitingForMe)
      conds.push(sql<SqlBool>`EXISTS (SELECT 1 FROM review_reviewers w WHERE w.review_id = r.id
        AND w.user_id = ${f.userId} AND w.removed_at IS NULL AND w.waiting > 0)`);
    if (f.requestedByMe) conds.push(sql<SqlBool>`r.created_by = ${f.userId}`);
    if (f.state) conds.push(sql<SqlBool>`r.state = ${f.state}`);
    if (f.dueBefore) conds.push(sql<SqlBool>`r.due_at < ${f.dueBefore}`);
    if (f.assetId)
      conds.push(
        sql<SqlBool>`EXISTS (SELECT 1 FROM review_assets x WHERE x.review_id = r.id AND x.asset_id = ${f.assetId})`,
      );
    const where = sql.join(conds, sql` AND `);
    const r = await sql<SummaryRow & { total_count: string }>`
      SELECT r.id, r.title, r.state, r.due_at, r.done_at, r.canceled_at, r.created_by,
        trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) AS requester_name,
        r.created_at, r.updated_at, r.active_stage,
        (SELECT count(*) FROM review_stages s WHERE s.review_id = r.id)::int AS stage_count,
        p.total, p.approved, p.changes_requested, p.rejected, p.in_review,
        coalesce((SELECT sum(m.waiting) FROM review_reviewers m
                  WHERE m.review_id = r.id AND m.user_id = ${f.userId} AND m.removed_at IS NULL), 0)::int AS waiting_for_me,
        count(*) OVER () AS total_count
      FROM reviews r
      LEFT JOIN users u ON u.id = r.created_by
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS total,
          count(*) FILTER (WHERE ra.status IN ('approved', 'approved_with_changes'))::int AS approved,
          count(*) FILTER (WHERE ra.status = 'changes_requested')::int AS changes_requested,
          count(*) FILTER (WHERE ra.status = 'rejected')::int AS rejected,
          count(*) FILTER (WHERE ra.status = 'in_review')::int AS in_review
        FROM review_assets ra JOIN assets a ON a.id = ra.asset_id AND a.deleted_at IS NULL
        WHERE ra.review_id = r.id) p
      WHERE ${where}
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT ${f.limit} OFFSET ${f.offset}`.execute(db);
    if (r.rows.length === 0 && f.offset > 0) {
      // A page past the end: how many there are, from the first page.
      const first = await this.list(db, { ...f, limit: 1, offset: 0 });
      return { rows: [], total: first.total };
    }
    const total = r.rows[0] ? Number(r.rows[0].total_count) : 0;
    return { rows: r.rows, total };
  },
  /** A member as a review names them (null: no such user any more). */
  async person(db: Db, userId: string | null): Promise<{ id: string; name: string; email: string } | null> {
    if (!userId) return null;
    const u = await db
      .selectFrom("users")
      .select(["id", "first_name", "last_name", "email"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!u) return null;
    return { id: u.id, name: `${u.first_name ?? ""} ${u.last_name ?? ""}`.trim() || u.email, email: u.email };
  },
};
