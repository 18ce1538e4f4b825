import {
  type Asset,
  type Comment,
  type CommentPage,
  REVIEW_MESSAGES,
  type ReviewDecisionBody,
  type ReviewerCommentBody,
  type ReviewerPage,
  reviewState,
} from "@hangar/contract";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import type { AssetsService } from "../assets/index.ts";
import type { CommentsService } from "../comments/index.ts";
import type { PublicLinks, VisitInput } from "../public-links/index.ts";
import type { ReviewDecisions } from "./decide.ts";
import { REVIEW_LINKS, type ReviewVisit, reviewerName } from "./kind.ts";
import { listRepo } from "./list-repo.ts";
import type { Clock } from "./mails.ts";
import { reviewsRepo } from "./repo.ts";
import { displayName, isOverdue, latestDecisions } from "./serialize.ts";
import { factsOf, loadReview } from "./state.ts";

/** An outside reviewer's comments and decisions, per address and link: plenty for a person, little for a script. */
export const REVIEWER_WRITES: Limit = { max: 120, windowSeconds: 600 };
const WRITES_THROTTLED = "Too many comments or decisions from here. Try again later.";

/**
 * What an outside reviewer does through their link (issue 30), each call through the services members
 * use with the reviewer as the actor, so the access layer keeps them to the review's assets and to
 * comments: the review's page, an asset, its comments (the threads made outside any board: notes and
 * their own), a comment or annotation under their name, a decision.
 */
export function createReviewLinks(deps: {
  db: Db;
  links: PublicLinks;
  assets: Pick<AssetsService, "get">;
  comments: Pick<CommentsService, "list" | "create">;
  decisions: Pick<ReviewDecisions, "asVisitor">;
  limiter: RateLimiter;
  clock: Clock;
}) {
  const { db } = deps;
  const resolver = deps.links.kind(REVIEW_LINKS);
  const ws = (v: ReviewVisit) => v.link.workspace_id;
  const throttle = (v: ReviewVisit) =>
    deps.limiter.consume([[`review-write:${v.link.id}:${v.ip}`, REVIEWER_WRITES]], WRITES_THROTTLED);
  const identity = (v: ReviewVisit) => ({ name: reviewerName(v.link), email: v.link.email });

  async function page(v: ReviewVisit): Promise<ReviewerPage> {
    const review = await reviewsRepo.get(db, ws(v), v.link.review_id);
    if (!review) throw notFound(REVIEW_MESSAGES.linkNotFound);
    const loaded = await loadReview(db, review);
    const outcome = reviewState(factsOf(loaded));
    const me = loaded.reviewers.find((r) => r.id === v.link.id);
    if (!me || me.removed_at) throw notFound(REVIEW_MESSAGES.linkNotFound);
    const names = new Map(loaded.reviewers.map((r) => [r.id, r.token ? reviewerName(r) : displayName(r)]));
    const outcomes = new Map(outcome.assets.map((a) => [a.assetId, a]));
    const [requester, workspaceName] = await Promise.all([
      listRepo.person(db, review.created_by),
      reviewsRepo.workspaceName(db, review.workspace_id),
    ]);
    const assets = [];
    for (const a of loaded.assets.filter((x) => x.live)) {
      // An asset whose usage rights expired has left the review link (issue 33): the access check says so.
      const asset = await deps.assets.get(v.visitor, ws(v), a.asset_id).catch((e: unknown) => {
        if (e instanceof AppError && e.code === "NOT_FOUND") return null;
        throw e;
      });
      if (!asset) continue;
      const o = outcomes.get(a.asset_id)!;
      const latest = latestDecisions(loaded.decisions, a);
      const mine = latest.get(me.id);
      assets.push({
        asset,
        status: o.status,
        awaiting_me: o.awaiting.includes(me.id),
        my_decision: mine
          ? { decision: mine.decision, note: mine.note, decided_at: mine.created_at.toISOString() }
          : null,
        decisions: [...latest.values()].map((d) => ({
          reviewer_name: names.get(d.reviewer_id) ?? "Reviewer",
          decision: d.decision,
          decided_at: d.created_at.toISOString(),
        })),
      });
    }
    const canceled = review.canceled_at !== null;
    return {
      review: {
        id: review.id,
        title: review.title,
        message: review.message,
        due_at: review.due_at?.toISOString() ?? null,
        overdue: isOverdue(review, deps.clock.now()),
        state: outcome.state,
        done: outcome.done,
        requested_by_name: requester?.name ?? null,
        workspace_name: workspaceName,
        active_stage: review.active_stage,
        stage_count: loaded.stages.length,
      },
      reviewer: {
        id: me.id,
        name: reviewerName(me),
        email: me.email ?? "",
        stage: me.stage,
        can_decide: !canceled && me.stage === review.active_stage,
      },
      assets,
      progress: outcome.progress,
    };
  }

  return {
    /** The reviewer behind a token, through the public links' gate (404, 403, 401, throttled). */
    resolve: (input: VisitInput) => resolver.resolve(input),
    page,
    asset: (v: ReviewVisit, assetId: string): Promise<Asset> => deps.assets.get(v.visitor, ws(v), assetId),
    comments: (v: ReviewVisit, q: { object_id: string; parent_id?: string }): Promise<CommentPage> =>
      deps.comments.list(v.visitor, ws(v), {
        content_type: "asset",
        object_id: q.object_id,
        parent_id: q.parent_id,
        limit: 500,
      }),
    async comment(v: ReviewVisit, body: z.output<typeof ReviewerCommentBody>): Promise<Comment> {
      await throttle(v);
      return deps.comments.create(
        v.visitor,
        ws(v),
        { ...body, content_type: "asset", board_id: null, mentions: [] },
        identity(v),
      );
    },
    async decide(v: ReviewVisit, body: z.output<typeof ReviewDecisionBody>): Promise<ReviewerPage> {
      await throttle(v);
      await deps.decisions.asVisitor(v.visitor, body);
      return page(v);
    },
  };
}
export type ReviewLinks = ReturnType<typeof createReviewLinks>;
