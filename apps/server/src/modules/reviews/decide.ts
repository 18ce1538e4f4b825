import { randomUUID } from "node:crypto";
import { REVIEW_MESSAGES, type ReviewDecisionBody, type ReviewDecisionKind } from "@hangar/contract";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { type Access, allows, inWorkspace } from "../../platform/access.ts";
import type { UserActor, VisitorActor } from "../../platform/actor.ts";
import { conflict, forbidden, notFound } from "../../platform/errors.ts";
import type { CommentsService } from "../comments/index.ts";
import { factsRepo, type ReviewerFact } from "./facts-repo.ts";
import { type Clock, DIGEST_WINDOW_MS, type ReviewMails } from "./mails.ts";
import { REVIEW } from "./policy.ts";
import { type ReviewRow, reviewsRepo } from "./repo.ts";
import { recompute } from "./state.ts";

type Body = z.output<typeof ReviewDecisionBody>;

/** A note's comment is marked as the decision reads: a rejection high, a request for changes medium… */
const SEVERITY: Record<ReviewDecisionKind, "positive" | "low" | "medium" | "high"> = {
  approved: "positive",
  approved_with_changes: "low",
  changes_requested: "medium",
  rejected: "high",
};

/**
 * Decisions (issue 30): a reviewer of the active stage (a member, or an outsider through their link)
 * decides on an asset's current version. Deciding again adds a decision (the latest counts; none is
 * ever changed or deleted). A note becomes a comment on that version, under the reviewer's name,
 * linked from the decision. The state is derived again in the same transaction, the review locked.
 *
 * Also what versions ask of reviews: whether an asset is locked (approved, the review locking on
 * approval) before a new version or make-current, and a state derived again when the current version
 * changed (its decisions in the active stage no longer count: they name the old version).
 */
export function createReviewDecisions(deps: {
  db: Db;
  access: Access;
  comments: Pick<CommentsService, "create">;
  mails: ReviewMails;
  clock: Clock;
}) {
  const { db, access } = deps;

  /** What must hold for `who` to decide on the asset now; answers the asset. */
  function check(
    review: ReviewRow,
    who: ReviewerFact,
    assets: Awaited<ReturnType<typeof factsRepo.assets>>,
    body: Body,
  ) {
    if (review.canceled_at) throw conflict(REVIEW_MESSAGES.canceled);
    if (who.stage > review.active_stage) throw forbidden(REVIEW_MESSAGES.waitingStage(who.stage + 1));
    if (who.stage < review.active_stage) throw forbidden(REVIEW_MESSAGES.stageDone);
    const asset = assets.find((a) => a.asset_id === body.asset_id && a.live);
    if (!asset) throw notFound(REVIEW_MESSAGES.notInReview);
    if (body.version_id && body.version_id !== asset.current_version_id) throw conflict(REVIEW_MESSAGES.staleVersion);
    return asset;
  }

  async function record(
    actor: UserActor | VisitorActor,
    review: ReviewRow,
    who: ReviewerFact,
    body: Body,
  ): Promise<void> {
    const asset = check(review, who, await factsRepo.assets(db, review.id), body);
    // The note first (as the reviewer: the comments service checks they may write on this asset).
    const comment = body.note
      ? await deps.comments.create(
          actor,
          review.workspace_id,
          {
            content_type: "asset",
            object_id: asset.asset_id,
            text: body.note,
            version_id: asset.current_version_id,
            severity: SEVERITY[body.decision],
            annotation_type: "NONE",
            board_id: null,
            mentions: [],
          },
          actor.kind === "visitor" ? { name: actor.name ?? null, email: actor.email ?? null } : undefined,
        )
      : null;
    await db.transaction().execute(async (tx) => {
      const locked = await reviewsRepo.lock(tx, review.workspace_id, review.id);
      if (!locked) throw notFound(REVIEW_MESSAGES.notFound);
      // Judged again on the review as it is now (a cancel or the next stage may have landed meanwhile).
      const now = deps.clock.now();
      const fresh = check(locked, who, await factsRepo.assets(tx, review.id), {
        ...body,
        version_id: body.version_id ?? asset.current_version_id,
      });
      // The requester's own decisions are not mailed to them; a review's first decision (after a quiet
      // window) goes at once and opens a window in which the next ones are gathered.
      const own = who.user_id !== null && who.user_id === locked.created_by;
      const atOnce = !own && (locked.digest_until === null || locked.digest_until.getTime() <= now.getTime());
      if (atOnce) await reviewsRepo.update(tx, locked.id, { digest_until: new Date(now.getTime() + DIGEST_WINDOW_MS) });
      await factsRepo.insertDecision(tx, {
        id: randomUUID(),
        review_id: locked.id,
        workspace_id: locked.workspace_id,
        asset_id: fresh.asset_id,
        asset_name: fresh.name,
        version_id: fresh.current_version_id,
        version_number: fresh.current_version_number,
        reviewer_id: who.id,
        stage: who.stage,
        decision: body.decision,
        note: body.note,
        comment_id: comment?.id ?? null,
        at_once: atOnce,
        mailed_at: own ? now : null,
      });
      await recompute(tx, (await reviewsRepo.lock(tx, locked.workspace_id, locked.id))!, now);
    });
    await deps.mails.flushQuietly(review.id);
  }

  return {
    /** A member's decision: they must be a reviewer of the review's active stage (COMMENTER is enough). */
    async asMember(actor: UserActor, workspaceId: string, reviewId: string, body: Body): Promise<void> {
      const grant = await access.require(actor, REVIEW.view, inWorkspace(workspaceId));
      const review = await reviewsRepo.get(db, workspaceId, reviewId);
      if (!review) throw notFound(REVIEW_MESSAGES.notFound);
      const who = (await factsRepo.reviewers(db, reviewId)).find(
        (r) => r.user_id === actor.userId && r.removed_at === null,
      );
      if (!who || !allows(grant, REVIEW.decide)) throw forbidden(REVIEW_MESSAGES.notReviewer);
      await record(actor, review, who, body);
    },
    /** An outside reviewer's decision, through their link (the gate let them through). */
    async asVisitor(visitor: VisitorActor, body: Body): Promise<void> {
      const who = (await factsRepo.reviewers(db, visitor.content.id)).find((r) => r.id === visitor.linkId);
      const review = await reviewsRepo.get(db, visitor.workspaceId, visitor.content.id);
      if (!who || who.removed_at || !review) throw notFound(REVIEW_MESSAGES.linkNotFound);
      await record(visitor, review, who, body);
    },

    /** 409 while the asset is approved in a review that locks on approval (until it is reopened). */
    async guardVersion(tx: Db, assetId: string): Promise<void> {
      const lock = await factsRepo.lockedBy(tx, assetId);
      if (lock) throw conflict(REVIEW_MESSAGES.locked(lock.title));
    },
    /**
     * The asset's current version changed (in the versions' transaction, the asset row locked): each
     * review holding it derives its state again, and records the change in its history. Mails a change
     * makes due (rare: a stage completed by going back to an approved version) go with the next sweep.
     */
    async versionChanged(tx: Db, assetId: string): Promise<void> {
      for (const r of await factsRepo.reviewsOf(tx, assetId)) {
        const review = await reviewsRepo.lock(tx, r.workspace_id, r.id);
        if (!review || review.canceled_at) continue;
        const { loaded } = await recompute(tx, review, deps.clock.now());
        const asset = loaded.assets.find((a) => a.asset_id === assetId);
        if (!asset || asset.current_version_id === r.version_id) continue;
        await reviewsRepo.event(tx, {
          review_id: review.id,
          workspace_id: review.workspace_id,
          type: "version",
          asset_ids: [assetId],
          detail: `Version ${asset.current_version_number} of “${asset.name}” became current`,
        });
      }
    },
  };
}
export type ReviewDecisions = ReturnType<typeof createReviewDecisions>;
