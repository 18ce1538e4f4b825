import { z } from "zod";
import { Id } from "./common.ts";

/**
 * Approvals (issue 30): the words every side shares. A reviewer's decision on an asset's version; an
 * asset's approval status in a review (derived from the decisions by `reviewState`, review-state.ts);
 * a review's state. Kept apart from reviews.ts so the asset answer and the listing can name them.
 */
export const REVIEW_DECISIONS = ["approved", "approved_with_changes", "changes_requested", "rejected"] as const;
export const ReviewDecisionKind = z.enum(REVIEW_DECISIONS);
export type ReviewDecisionKind = z.infer<typeof ReviewDecisionKind>;

/** What stops a stage for an asset as soon as one reviewer says so (until a new version or a reopen). */
export const STOPPING_DECISIONS: readonly ReviewDecisionKind[] = ["changes_requested", "rejected"];
export const isApproval = (d: ReviewDecisionKind) => d === "approved" || d === "approved_with_changes";

/** A review: open while decisions are awaited or possible; its outcome; or canceled. */
export const REVIEW_STATES = ["open", "approved", "changes_requested", "rejected", "canceled"] as const;
export const ReviewState = z.enum(REVIEW_STATES);
export type ReviewState = z.infer<typeof ReviewState>;

/** An asset's approval: `none` when no review (but canceled ones) holds it. */
export const APPROVAL_STATUSES = [
  "none",
  "in_review",
  "approved",
  "approved_with_changes",
  "changes_requested",
  "rejected",
] as const;
export const ApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;
/** An asset's status inside a review (it is in one, so never `none`). */
export const ReviewAssetStatus = z.enum([
  "in_review",
  "approved",
  "approved_with_changes",
  "changes_requested",
  "rejected",
]);
export type ReviewAssetStatus = z.infer<typeof ReviewAssetStatus>;

/** A stage's rule: every reviewer of the stage must approve, or any one of them. */
export const StageRule = z.enum(["all", "any"]);
export type StageRule = z.infer<typeof StageRule>;

/**
 * The asset answer's `approval`: the latest review holding the asset (canceled ones aside), the
 * asset's status in it, and the decisions that count on the asset's current version (each
 * reviewer's latest since the last reopen). Null: no review holds it.
 */
export const AssetApproval = z.object({
  review_id: Id,
  review_title: z.string(),
  status: ReviewAssetStatus,
  decisions: z.array(
    z.object({
      reviewer_id: Id,
      /** A member reviewer's user id (null: an outside reviewer). */
      user_id: Id.nullable(),
      /** The reviewer's name as the review recorded it (an outsider's name or e-mail). */
      name: z.string(),
      decision: ReviewDecisionKind,
      decided_at: z.string(),
    }),
  ),
});
export type AssetApproval = z.infer<typeof AssetApproval>;

/** The fixed texts of approvals: errors and the words the web shows. */
export const REVIEW_MESSAGES = {
  notFound: "Review not found.",
  linkNotFound: "Review link not found.",
  notReviewer: "Only a reviewer of the review's active stage can decide.",
  waitingStage: (stage: number) =>
    `Your stage (${stage}) has not started yet: it starts when stage ${stage - 1} is done.`,
  stageDone: "Your stage is done: the review has moved on.",
  canceled: "This review was canceled.",
  notInReview: "This asset is not in the review.",
  staleVersion: "A newer version of this asset became current: look at it before deciding.",
  onlyRequester: "Only the requester or an admin can change this review.",
  noAssets: "A review needs at least one asset.",
  boardEmpty: "The board has no assets to review.",
  dueInPast: "The due date must be in the future.",
  twoStages: (who: string) => `${who} is a reviewer in more than one stage.`,
  notMember: "Reviewers given by id must be members of this workspace.",
  stageLocked: (n: number) => `Stage ${n} is done and can no longer change.`,
  activeStageGone: "The active stage cannot be removed.",
  locked: (title: string) =>
    `This asset was approved in the review “${title}” and is locked: the requester or an admin can reopen it to change its versions.`,
  tooManyInvites: "Too many outside reviewers invited. Try again later.",
} as const;

/** The labels of decisions and statuses, for mails and reports (the web shows the same words). */
export const DECISION_LABELS: Record<ReviewDecisionKind, string> = {
  approved: "Approved",
  approved_with_changes: "Approved with changes",
  changes_requested: "Changes requested",
  rejected: "Rejected",
};
export const STATUS_LABELS: Record<ApprovalStatus | ReviewState, string> = {
  none: "Not in review",
  in_review: "In review",
  open: "Open",
  canceled: "Canceled",
  ...DECISION_LABELS,
};
