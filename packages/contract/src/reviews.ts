import { z } from "zod";
import { ReviewAssetStatus, ReviewDecisionKind, ReviewState, StageRule } from "./approvals.ts";
import { Asset } from "./assets.ts";
import { AnnotationFields, annotationIssues, CommentText, Severity } from "./comments.ts";
import { Id } from "./common.ts";
import { Pagination } from "./listing.ts";
import { SHARE_PASSWORD_MAX } from "./shares.ts";

/**
 * Review requests (issue 30). A requester (EDITOR or ADMIN) asks named reviewers to decide on assets,
 * stage after stage, by a due date. Members are reviewers by user id (COMMENTER is enough); outsiders
 * by e-mail, each with a personal review link (`/review/{token}`, a public link: password and expiry
 * as share links have). Decisions are append-only facts on a version; states are derived from them
 * (`reviewState`, review-state.ts). Stages are numbered from 0 in the API (`stage`, `active_stage`).
 *
 * Who: every member sees the workspace's reviews and their reports; EDITOR and ADMIN create; the
 * requester and ADMINs edit, cancel, reopen and manage the outside reviewers' links; a reviewer of the
 * active stage decides. Outsiders 404.
 */

const Email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: "Enter a valid e-mail address" }));
const When = z.iso.datetime({ offset: true });

/**
 * A reviewer: a member's user id, or an outsider's e-mail address (an address of a member counts as
 * that member); the object forms add an outsider's name and their link's password and expiry.
 */
export const ReviewerInput = z.union([
  Id,
  Email,
  z.object({ user_id: Id }).strict(),
  z
    .object({
      email: Email,
      name: z.string().trim().max(100).optional(),
      password: z.string().min(1).max(SHARE_PASSWORD_MAX).optional(),
      expires_at: When.optional(),
    })
    .strict(),
]);
export type ReviewerInput = z.input<typeof ReviewerInput>;

export const StageInput = z
  .object({
    rule: StageRule.default("all"),
    reviewers: z.array(ReviewerInput).min(1, "A stage needs at least one reviewer").max(50),
  })
  .strict();

export const CreateReviewBody = z
  .object({
    title: z.string().trim().min(1, "Give the review a title").max(200),
    message: z.string().trim().max(5000).default(""),
    /** The assets to review; or `board_id`: every asset filed directly in that board now. */
    asset_ids: z.array(Id).min(1, "Choose at least one asset").max(500).optional(),
    board_id: Id.optional(),
    due_at: When.nullish(),
    stages: z.array(StageInput).min(1, "A review needs at least one stage").max(10),
    lock_on_approval: z.boolean().default(true),
  })
  .strict()
  .refine((b) => (b.asset_ids === undefined) !== (b.board_id === undefined), {
    message: "Send either asset_ids or board_id",
    path: ["asset_ids"],
  });
export type CreateReviewBody = z.input<typeof CreateReviewBody>;

/**
 * Changes by the requester or an ADMIN. `stages` is the whole list again: stages already done must
 * stay as they are (409); the active one and later ones may change (reviewers kept by identity keep
 * their decisions and links; new ones are asked when their stage is active; removed ones' links end).
 */
export const UpdateReviewBody = z
  .object({
    title: z.string().trim().min(1, "Give the review a title").max(200).optional(),
    message: z.string().trim().max(5000).optional(),
    due_at: When.nullable().optional(),
    lock_on_approval: z.boolean().optional(),
    stages: z.array(StageInput).min(1, "A review needs at least one stage").max(10).optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Nothing to change" });
export type UpdateReviewBody = z.input<typeof UpdateReviewBody>;

/** Reopen: a canceled review resumes; the assets named (absent: every asset) start the active stage over. */
export const ReopenReviewBody = z.object({ asset_ids: z.array(Id).min(1).max(500).optional() }).strict();

export const ReviewDecisionBody = z
  .object({
    asset_id: Id,
    decision: ReviewDecisionKind,
    /** Stored as a comment on the version decided on, linked to the decision. */
    note: z
      .string()
      .trim()
      .max(10_000)
      .nullish()
      .transform((v) => (v ? v : null)),
    /** The version the reviewer looked at: when another became current meanwhile, 409. */
    version_id: Id.optional(),
  })
  .strict();
export type ReviewDecisionBody = z.input<typeof ReviewDecisionBody>;

/** An outside reviewer's link: as a share link's gate (null expiry: none; null or "" password: none). */
export const ReviewerLinkBody = z
  .object({
    is_active: z.boolean().optional(),
    expires_at: When.nullable().optional(),
    password: z.string().max(SHARE_PASSWORD_MAX).nullable().optional(),
    name: z.string().trim().max(100).optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Nothing to change" });

export const ReviewListQuery = z.object({
  waiting_for: z.literal("me").optional(),
  requested_by: z.literal("me").optional(),
  state: ReviewState.optional(),
  /** Due before this instant (or plain date, UTC midnight); reviews without a due date never match. */
  due_before: z.union([When, z.iso.date()]).optional(),
  /** Reviews holding this asset (its review history). */
  asset_id: Id.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});
export type ReviewListQuery = z.input<typeof ReviewListQuery>;

export const ReviewReportQuery = z.object({ format: z.enum(["csv", "pdf"]).default("pdf") });

export const ReviewParams = z.object({ id: Id, reviewId: Id });
export const ReviewerParams = ReviewParams.extend({ reviewerId: Id });
export const ReviewTokenParams = z.object({ token: z.string().min(1).max(200) });
export const ReviewTokenAssetParams = ReviewTokenParams.extend({ assetId: Id });

export const ReviewPerson = z.object({ id: Id, name: z.string() });
export const ReviewProgress = z.object({
  total: z.number().int(),
  approved: z.number().int(),
  changes_requested: z.number().int(),
  rejected: z.number().int(),
  in_review: z.number().int(),
});

/** An outside reviewer's link, for whoever manages the review. */
export const ReviewerLink = z.object({
  token: z.string(),
  /** The web page to send: `/review/{token}`. */
  path: z.string(),
  is_active: z.boolean(),
  expires_at: z.string().nullable(),
  has_password: z.boolean(),
});

export const ReviewReviewer = z.object({
  id: Id,
  stage: z.number().int(),
  kind: z.enum(["member", "external"]),
  user_id: Id.nullable(),
  name: z.string(),
  /** An outsider's address (members' addresses are not shown here). */
  email: z.string().nullable(),
  /** Assets awaiting this reviewer's decision now. */
  waiting: z.number().int(),
  /** When they were asked (their stage started and the mail went out); null: not yet. */
  asked_at: z.string().nullable(),
  /** An outsider's link, for the requester and ADMINs; null otherwise. */
  link: ReviewerLink.nullable(),
});
export type ReviewReviewer = z.infer<typeof ReviewReviewer>;

export const ReviewStage = z.object({
  index: z.number().int(),
  rule: StageRule,
  state: z.enum(["waiting", "active", "done"]),
  started_at: z.string().nullable(),
  reviewers: z.array(ReviewReviewer),
});

/** One decision as recorded (never deleted; a later one of the same reviewer replaces it for the state). */
export const ReviewDecision = z.object({
  id: Id,
  asset_id: Id,
  asset_name: z.string(),
  version_id: Id,
  version_number: z.number().int(),
  reviewer_id: Id,
  reviewer_name: z.string(),
  stage: z.number().int(),
  decision: ReviewDecisionKind,
  note: z.string().nullable(),
  /** The note's comment on the version (null: no note, or the comment was deleted). */
  comment_id: Id.nullable(),
  created_at: z.string(),
  /** It is what counts now for the asset's state (the reviewer's latest, on the current version, since the last reopen). */
  counts: z.boolean(),
});
export type ReviewDecision = z.infer<typeof ReviewDecision>;

/** A reviewer's decision on an asset's current version (null: pending). */
export const ReviewCell = z.object({
  reviewer_id: Id,
  stage: z.number().int(),
  decision: ReviewDecisionKind.nullable(),
  decision_id: Id.nullable(),
  decided_at: z.string().nullable(),
  note: z.string().nullable(),
});

export const ReviewAssetEntry = z.object({
  asset_id: Id,
  name: z.string(),
  /** The asset as the caller sees it (null: it was deleted). */
  asset: Asset.nullable(),
  current_version: z.object({ id: Id, number: z.number().int() }),
  status: ReviewAssetStatus,
  /** Approved with lock_on_approval: no new version or make-current until reopened. */
  locked: z.boolean(),
  /** Reviewers of the active stage still to decide on it. */
  awaiting: z.array(Id),
  cells: z.array(ReviewCell),
});
export type ReviewAssetEntry = z.infer<typeof ReviewAssetEntry>;

export const ReviewHistoryType = z.enum([
  "created",
  "edited",
  "stage_started",
  "reopened",
  "canceled",
  "completed",
  "version",
]);
export const ReviewHistoryEntry = z.object({
  id: Id,
  type: ReviewHistoryType,
  at: z.string(),
  by: z.string().nullable(),
  stage: z.number().int().nullable(),
  asset_ids: z.array(Id),
  detail: z.string().nullable(),
});

export const ReviewAbilities = z.object({
  edit: z.boolean(),
  cancel: z.boolean(),
  reopen: z.boolean(),
  /** The caller is a reviewer of the active stage of a review that is not canceled. */
  decide: z.boolean(),
});

export const Review = z
  .object({
    id: Id,
    workspace_id: Id,
    title: z.string(),
    message: z.string(),
    board_id: Id.nullable(),
    due_at: z.string().nullable(),
    overdue: z.boolean(),
    lock_on_approval: z.boolean(),
    state: ReviewState,
    /** No decision is awaited any more (approved, or stopped by changes or rejections). */
    done: z.boolean(),
    active_stage: z.number().int(),
    requested_by: ReviewPerson.nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    canceled_at: z.string().nullable(),
    stages: z.array(ReviewStage),
    assets: z.array(ReviewAssetEntry),
    progress: ReviewProgress,
    /** Every decision, oldest first. */
    decisions: z.array(ReviewDecision),
    history: z.array(ReviewHistoryEntry),
    me: z.object({
      reviewer_id: Id.nullable(),
      stage: z.number().int().nullable(),
      /** Assets awaiting the caller's decision. */
      waiting: z.array(Id),
    }),
    abilities: ReviewAbilities,
  })
  .meta({ id: "Review" }); // one component in the OpenAPI document
export type Review = z.infer<typeof Review>;

export const ReviewSummary = z.object({
  id: Id,
  title: z.string(),
  state: ReviewState,
  done: z.boolean(),
  due_at: z.string().nullable(),
  overdue: z.boolean(),
  requested_by: ReviewPerson.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  active_stage: z.number().int(),
  stage_count: z.number().int(),
  progress: ReviewProgress,
  /** Assets awaiting the caller's decision. */
  waiting_for_me: z.number().int(),
});
export type ReviewSummary = z.infer<typeof ReviewSummary>;
export const ReviewListAnswer = z.object({ data: z.array(ReviewSummary), pagination: Pagination });
export type ReviewListAnswer = z.infer<typeof ReviewListAnswer>;

/** What an outside reviewer's link opens: the review, their own part in it, and its assets. */
export const ReviewerPage = z.object({
  review: z.object({
    id: Id,
    title: z.string(),
    message: z.string(),
    due_at: z.string().nullable(),
    overdue: z.boolean(),
    state: ReviewState,
    done: z.boolean(),
    requested_by_name: z.string().nullable(),
    workspace_name: z.string(),
    active_stage: z.number().int(),
    stage_count: z.number().int(),
  }),
  reviewer: z.object({
    id: Id,
    name: z.string(),
    email: z.string(),
    stage: z.number().int(),
    /** Their stage is active and the review not canceled. */
    can_decide: z.boolean(),
  }),
  assets: z.array(
    z.object({
      asset: Asset,
      status: ReviewAssetStatus,
      awaiting_me: z.boolean(),
      my_decision: z
        .object({ decision: ReviewDecisionKind, note: z.string().nullable(), decided_at: z.string() })
        .nullable(),
      /** The decisions that count on the current version, by reviewer name. */
      decisions: z.array(z.object({ reviewer_name: z.string(), decision: ReviewDecisionKind, decided_at: z.string() })),
    }),
  ),
  progress: ReviewProgress,
});
export type ReviewerPage = z.infer<typeof ReviewerPage>;

/** An outside reviewer's comment or annotation on an asset of the review (their name from the review). */
export const ReviewerCommentBody = AnnotationFields.extend({
  object_id: Id,
  text: CommentText,
  parent_id: Id.nullish(),
  severity: Severity.default("none"),
})
  .strict()
  .superRefine((value, ctx) => {
    for (const issue of annotationIssues(value))
      ctx.addIssue({ code: "custom", path: [issue.field], message: issue.message });
  });
export const ReviewerCommentsQuery = z.object({ object_id: Id, parent_id: Id.optional() });
