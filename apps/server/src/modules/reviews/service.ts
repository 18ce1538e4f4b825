import { randomUUID } from "node:crypto";
import {
  type CreateReviewBody,
  REVIEW_MESSAGES,
  type Review,
  type ReviewerLinkBody,
  type ReviewListAnswer,
  type ReviewListQuery,
  type ReviewReviewer,
  reviewState,
  type UpdateReviewBody,
} from "@hangar/contract";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { type Access, allows, type Grant, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { forbidden, invalid, notFound } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import type { AssetsService } from "../assets/index.ts";
import { gateChanges } from "../public-links/index.ts";
import { applyStages } from "./edit-stages.ts";
import { factsRepo } from "./facts-repo.ts";
import { listRepo } from "./list-repo.ts";
import type { Clock, ReviewMails } from "./mails.ts";
import { REVIEW } from "./policy.ts";
import { type ReviewRow, reviewsRepo } from "./repo.ts";
import { keyOf, resolveStages, reviewerRow } from "./reviewers.ts";
import { serializeReview, serializeReviewer, serializeSummary } from "./serialize.ts";
import { factsOf, loadReview, recompute } from "./state.ts";

/** Reviews with outside reviewers one member may ask for per hour: plenty for work, little for mailing strangers. */
export const REVIEW_INVITES: Limit = { max: 30, windowSeconds: 3600 };
const DAY_MS = 24 * 3600_000;

export interface ReviewsDeps {
  db: Db;
  access: Access;
  assets: Pick<AssetsService, "many">;
  mails: ReviewMails;
  limiter: RateLimiter;
  clock: Clock;
}

const nameOf = (actor: UserActor) =>
  `${actor.user.first_name ?? ""} ${actor.user.last_name ?? ""}`.trim() || actor.user.email;
/** Within a day of the due date already: the "asked" mail says when it is due, no separate reminder. */
const reminderDone = (due: Date | null, now: Date) => (due && due.getTime() - now.getTime() <= DAY_MS ? now : null);

/** Review requests as members manage and read them (issue 30); decisions are decide.ts's. */
export function createReviewsService(deps: ReviewsDeps) {
  const { db, access } = deps;
  const now = () => deps.clock.now();

  async function found(workspaceId: string, reviewId: string): Promise<ReviewRow> {
    const review = await reviewsRepo.get(db, workspaceId, reviewId);
    if (!review) throw notFound(REVIEW_MESSAGES.notFound);
    return review;
  }
  const mayManage = (actor: UserActor, grant: Grant, review: ReviewRow) =>
    review.created_by === actor.userId || allows(grant, REVIEW.manage);
  /** The review for its requester or an ADMIN (other members 403, outsiders 404). */
  async function manageable(actor: UserActor, workspaceId: string, reviewId: string) {
    const grant = await access.require(actor, REVIEW.view, inWorkspace(workspaceId));
    const review = await found(workspaceId, reviewId);
    if (!mayManage(actor, grant, review)) throw forbidden(REVIEW_MESSAGES.onlyRequester);
    return review;
  }
  /** Outsiders get mail from us on the member's word: counted per member (429 past the limit). */
  const inviting = (actor: UserActor) =>
    deps.limiter.consume([[`review-invite:acct:${actor.userId}`, REVIEW_INVITES]], REVIEW_MESSAGES.tooManyInvites);
  function checkDue(due: string | null | undefined, at: Date): Date | null {
    if (!due) return null;
    const d = new Date(due);
    if (d.getTime() <= at.getTime())
      throw invalid(REVIEW_MESSAGES.dueInPast, [{ field: "due_at", message: REVIEW_MESSAGES.dueInPast }]);
    return d;
  }
  /** Runs a change with the review locked, derives its state again, then sends what mail it made due. */
  async function change(
    workspaceId: string,
    reviewId: string,
    work: (tx: Db, review: ReviewRow) => Promise<void>,
  ): Promise<void> {
    await db.transaction().execute(async (tx) => {
      const review = await reviewsRepo.lock(tx, workspaceId, reviewId);
      if (!review) throw notFound(REVIEW_MESSAGES.notFound);
      await work(tx, review);
      await recompute(tx, (await reviewsRepo.lock(tx, workspaceId, reviewId))!, now());
    });
    await deps.mails.flushQuietly(reviewId);
  }

  async function answer(actor: UserActor, grant: Grant, review: ReviewRow): Promise<Review> {
    const loaded = await loadReview(db, review);
    const outcome = reviewState(factsOf(loaded));
    const live = loaded.assets.filter((a) => a.live).map((a) => a.asset_id);
    const [events, assets, requester] = await Promise.all([
      factsRepo.events(db, review.id),
      deps.assets.many(actor, review.workspace_id, live),
      listRepo.person(db, review.created_by),
    ]);
    return serializeReview({
      loaded,
      outcome,
      events,
      assets: new Map(assets.map((a) => [a.id, a])),
      requester: requester && { id: requester.id, name: requester.name },
      caller: {
        userId: actor.userId,
        manage: mayManage(actor, grant, review),
        mayDecide: allows(grant, REVIEW.decide),
      },
      now: now(),
    });
  }

  return {
    async create(actor: UserActor, workspaceId: string, body: z.output<typeof CreateReviewBody>): Promise<Review> {
      await access.require(actor, REVIEW.create, inWorkspace(workspaceId));
      const at = now();
      const due = checkDue(body.due_at, at);
      let ids = body.asset_ids ?? [];
      if (body.board_id) {
        const inBoard = await reviewsRepo.boardAssetIds(db, workspaceId, body.board_id);
        if (inBoard === null) throw notFound("Board not found.");
        if (inBoard.length === 0)
          throw invalid(REVIEW_MESSAGES.boardEmpty, [{ field: "board_id", message: REVIEW_MESSAGES.boardEmpty }]);
        ids = inBoard;
      }
      const unique = [...new Set(ids)];
      const assets = await reviewsRepo.liveAssets(db, workspaceId, unique);
      if (assets.length !== unique.length) throw notFound("Asset not found.");
      const stages = await resolveStages(db, workspaceId, body.stages);
      if (stages.some((s) => s.reviewers.some((r) => r.userId === null))) await inviting(actor);
      const id = randomUUID();
      const review = { id, workspace_id: workspaceId };
      await db.transaction().execute(async (tx) => {
        await reviewsRepo.insert(tx, {
          id,
          workspace_id: workspaceId,
          title: body.title,
          message: body.message,
          board_id: body.board_id ?? null,
          due_at: due,
          lock_on_approval: body.lock_on_approval,
          created_by: actor.userId,
          reminder_sent_at: reminderDone(due, at),
        });
        await reviewsRepo.insertStages(
          tx,
          stages.map((s, i) => ({
            review_id: id,
            workspace_id: workspaceId,
            position: i,
            rule: s.rule,
            started_at: i === 0 ? at : null,
          })),
        );
        const rows = [];
        for (const n of stages.flatMap((s) => s.reviewers)) rows.push(await reviewerRow(n, review));
        await reviewsRepo.insertReviewers(tx, rows);
        await reviewsRepo.insertAssets(
          tx,
          assets.map((a, i) => ({ review_id: id, asset_id: a.id, workspace_id: workspaceId, position: i })),
        );
        const by = { review_id: id, workspace_id: workspaceId, actor_id: actor.userId, actor_name: nameOf(actor) };
        await reviewsRepo.event(tx, { ...by, type: "created", asset_ids: assets.map((a) => a.id) });
        await reviewsRepo.event(tx, { review_id: id, workspace_id: workspaceId, type: "stage_started", stage: 0 });
        await recompute(tx, (await reviewsRepo.lock(tx, workspaceId, id))!, at);
      });
      await deps.mails.flushQuietly(id);
      return this.get(actor, workspaceId, id);
    },

    async list(actor: UserActor, workspaceId: string, q: z.output<typeof ReviewListQuery>): Promise<ReviewListAnswer> {
      await access.require(actor, REVIEW.view, inWorkspace(workspaceId));
      const { rows, total } = await listRepo.list(db, {
        workspaceId,
        userId: actor.userId,
        waitingForMe: q.waiting_for === "me",
        requestedByMe: q.requested_by === "me",
        state: q.state,
        dueBefore: q.due_before ? new Date(q.due_before) : undefined,
        assetId: q.asset_id,
        limit: q.page_size,
        offset: (q.page - 1) * q.page_size,
      });
      const at = now();
      const seen = (q.page - 1) * q.page_size + rows.length;
      return {
        data: rows.map((r) => serializeSummary(r, at)),
        pagination: {
          page: q.page,
          page_size: q.page_size,
          total_count: total,
          total_pages: Math.ceil(total / q.page_size),
          has_more: total > seen,
          count_is_estimate: false,
        },
      };
    },

    async get(actor: UserActor, workspaceId: string, reviewId: string): Promise<Review> {
      const grant = await access.require(actor, REVIEW.view, inWorkspace(workspaceId));
      return answer(actor, grant, await found(workspaceId, reviewId));
    },

    async update(
      actor: UserActor,
      workspaceId: string,
      reviewId: string,
      body: z.output<typeof UpdateReviewBody>,
    ): Promise<Review> {
      await manageable(actor, workspaceId, reviewId);
      const at = now();
      const stages = body.stages ? await resolveStages(db, workspaceId, body.stages) : null;
      if (stages) {
        const known = new Set((await factsRepo.reviewers(db, reviewId)).map((r) => keyOf(r)));
        if (stages.some((s) => s.reviewers.some((r) => r.userId === null && !known.has(r.key)))) await inviting(actor);
      }
      const due = body.due_at === undefined ? undefined : checkDue(body.due_at, at);
      await change(workspaceId, reviewId, async (tx, review) => {
        const changed: string[] = [];
        const patch: Parameters<typeof reviewsRepo.update>[2] = {};
        const set = <K extends "title" | "message" | "lock_on_approval">(
          key: K,
          value: ReviewRow[K] | undefined,
          label: string,
        ) => {
          if (value === undefined || value === review[key]) return;
          patch[key] = value as never;
          changed.push(label);
        };
        set("title", body.title, "title");
        set("message", body.message, "message");
        set("lock_on_approval", body.lock_on_approval, "lock");
        if (due !== undefined && due?.getTime() !== review.due_at?.getTime()) {
          // A new due date gets its own reminder and overdue notice.
          Object.assign(patch, { due_at: due, reminder_sent_at: reminderDone(due, at), overdue_sent_at: null });
          changed.push("due date");
        }
        if (Object.keys(patch).length) await reviewsRepo.update(tx, review.id, patch);
        if (stages) changed.push(await applyStages(tx, await loadReview(tx, review), stages, at));
        if (changed.length)
          await reviewsRepo.event(tx, {
            review_id: review.id,
            workspace_id: workspaceId,
            type: "edited",
            actor_id: actor.userId,
            actor_name: nameOf(actor),
            detail: changed.join("; "),
          });
      });
      return this.get(actor, workspaceId, reviewId);
    },

    async cancel(actor: UserActor, workspaceId: string, reviewId: string): Promise<Review> {
      await manageable(actor, workspaceId, reviewId);
      await change(workspaceId, reviewId, async (tx, review) => {
        if (review.canceled_at) return;
        await reviewsRepo.update(tx, review.id, { canceled_at: now() });
        await reviewsRepo.event(tx, {
          review_id: review.id,
          workspace_id: workspaceId,
          type: "canceled",
          actor_id: actor.userId,
          actor_name: nameOf(actor),
        });
      });
      return this.get(actor, workspaceId, reviewId);
    },

    /** A canceled review resumes; the assets named (all, unless it was canceled) start the active stage over. */
    async reopen(actor: UserActor, workspaceId: string, reviewId: string, assetIds?: string[]): Promise<Review> {
      await manageable(actor, workspaceId, reviewId);
      await change(workspaceId, reviewId, async (tx, review) => {
        const inReview = new Set((await factsRepo.assets(tx, review.id)).map((a) => a.asset_id));
        if (assetIds?.some((id) => !inReview.has(id))) throw notFound(REVIEW_MESSAGES.notInReview);
        const reset = assetIds ?? (review.canceled_at ? [] : [...inReview]);
        if (review.canceled_at) await reviewsRepo.update(tx, review.id, { canceled_at: null });
        const seq = await reviewsRepo.event(tx, {
          review_id: review.id,
          workspace_id: workspaceId,
          type: "reopened",
          actor_id: actor.userId,
          actor_name: nameOf(actor),
          stage: review.active_stage,
          asset_ids: reset,
        });
        await reviewsRepo.resetAssets(tx, review.id, reset, seq);
        // Done again later is a new completion: its own mail.
        await reviewsRepo.update(tx, review.id, { done_at: null });
      });
      return this.get(actor, workspaceId, reviewId);
    },

    /** An outside reviewer's link: its gate (as a share link's) and their name. */
    async reviewerLink(
      actor: UserActor,
      workspaceId: string,
      reviewId: string,
      reviewerId: string,
      body: z.output<typeof ReviewerLinkBody>,
    ): Promise<ReviewReviewer> {
      await manageable(actor, workspaceId, reviewId);
      const gate = await gateChanges(body);
      await db.transaction().execute(async (tx) => {
        const who = (await factsRepo.reviewers(tx, reviewId)).find((r) => r.id === reviewerId);
        if (!who?.token || who.removed_at) throw notFound("Reviewer not found.");
        const { bumpPassword, ...patch } = gate;
        const all = {
          ...patch,
          ...(body.is_active !== undefined ? { is_active: body.is_active } : {}),
          ...(body.name !== undefined ? { name: body.name } : {}),
        };
        if (Object.keys(all).length) await reviewsRepo.updateReviewer(tx, reviewerId, all);
        if (bumpPassword) await reviewsRepo.bumpPassword(tx, reviewerId);
      });
      const who = (await factsRepo.reviewers(db, reviewId)).find((r) => r.id === reviewerId)!;
      return serializeReviewer(who, true);
    },
  };
}
export type ReviewsService = ReturnType<typeof createReviewsService>;
