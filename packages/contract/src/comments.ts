import { z } from "zod";
import { Id } from "./common.ts";
import { DrawingShape, DrawingShapesInput } from "./drawings.ts";

/**
 * Comments and annotations (spec 02 §3 Comment, §4 Comments and Annotations, §5, §6, §7 Comments, §9).
 * Coordinates are percent of the image or document page (0–100); video comments carry a timestamp
 * (seconds) and optionally a duration (a range on the timeline).
 */
export const COMMENT_TEXT_MAX = 10_000;
/** Page size of comment lists (top-level comments or one thread's replies). */
export const COMMENT_PAGE_SIZE = 100;
export const COMMENT_PAGE_MAX = 500;
/** Spec 02 §9: a drag under 1 % in both directions is a POINT. */
export const ANNOTATION_POINT_THRESHOLD = 1;
/** Spec 02 §4: the annotation popover needs this much room, with this margin to the viewport edge. */
export const ANNOTATION_POPOVER = { width: 300, height: 150, margin: 16 } as const;
/** Spec 02 §4: the list scrolls to the bottom this long after posting. */
export const COMMENT_SCROLL_DELAY_MS = 100;
/** The query parameter of an asset's address naming the comment to land on (a mention's e-mail). */
export const COMMENT_LINK_PARAM = "comment";

export const SEVERITIES = ["high", "medium", "low", "positive", "none"] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

/** DRAWING (issue 31): `shapes` drawn on the picture (drawings.ts). */
export const ANNOTATION_TYPES = ["NONE", "POINT", "AREA", "DRAWING"] as const;
export const AnnotationType = z.enum(ANNOTATION_TYPES);
export type AnnotationType = z.infer<typeof AnnotationType>;

export const CommentContentType = z.literal("asset");

export const CommentAuthor = z.object({
  id: Id,
  first_name: z.string(),
  last_name: z.string(),
  avatar_url: z.string().nullable(),
});
export type CommentAuthor = z.infer<typeof CommentAuthor>;

/** What the caller may do with a comment (spec 02 §6): edit is the author's; delete the author's or an ADMIN's. */
export const CommentAbilities = z.object({
  edit: z.boolean(),
  delete: z.boolean(),
  reply: z.boolean(),
  resolve: z.boolean(),
});
export type CommentAbilities = z.infer<typeof CommentAbilities>;

/** A member named with `@` in the text; the text keeps the display name as typed. */
export const CommentMention = z.object({ user_id: Id, display: z.string() });
export type CommentMention = z.infer<typeof CommentMention>;

export const Comment = z
  .object({
    id: Id,
    text: z.string(),
    /** Null for an anonymous (share-link visitor) author. */
    author: CommentAuthor.nullable(),
    /** The author's full name, the visitor's given name, or "Anonymous". */
    author_display: z.string(),
    created_at: z.string(),
    /** Differs from created_at when the text was edited. */
    updated_at: z.string(),
    parent_id: Id.nullable(),
    /** The top-level comment of the thread (its own id for a top-level comment). */
    thread_id: Id,
    content_type: CommentContentType,
    object_id: Id,
    /** Null: a global comment (made in the all-assets view). */
    board_id: Id.nullable(),
    severity: Severity,
    annotation_type: AnnotationType,
    x: z.number().nullable(),
    y: z.number().nullable(),
    width: z.number().nullable(),
    height: z.number().nullable(),
    /** Documents: the page the annotation or comment belongs to (1-based). */
    page: z.number().int().nullable(),
    /**
     * Videos: the frame's time in seconds (an annotation's coordinates are on that frame), and
     * optionally how long the remark spans (a range: in = timestamp, out = timestamp + duration).
     */
    timestamp: z.number().nullable(),
    duration: z.number().nullable(),
    /**
     * A DRAWING's shapes (null for any other annotation); its `x`/`y` are the first shape's first point.
     * The default only fills in answers from before drawings.
     */
    shapes: z.array(DrawingShape).nullable().default(null),
    /** Top-level comments: how many replies the thread has at any depth. */
    reply_count: z.number().int(),
    /** Top-level comments: the thread is resolved (folds away) until reopened. */
    resolved: z.boolean(),
    resolved_at: z.string().nullable(),
    resolved_by: CommentAuthor.nullable(),
    mentions: z.array(CommentMention),
    /** Set when a share-link visitor wrote it: the link it came through. */
    share_link_id: Id.nullable(),
    abilities: CommentAbilities,
    /**
     * The version of the asset it was made on (annotations are drawn on that version). This server
     * always says; the default only fills in answers from before versions.
     */
    version: z.object({ id: Id, number: z.number().int() }).nullable().default(null),
  })
  .meta({ id: "Comment" }); // one component in the OpenAPI document
export type Comment = z.infer<typeof Comment>;

/**
 * Percent of the image, kept to 1/10,000 of a percent (far finer than a pixel): a denormal such as
 * 5e-324 becomes 0 rather than reaching the database's `real` column out of its range.
 */
const Percent = z
  .number()
  .min(0, "Must be between 0 and 100")
  .max(100, "Must be between 0 and 100")
  .transform((v) => Math.round(v * 10_000) / 10_000);
export const CommentText = z
  .string()
  .trim()
  .min(1, "Comment text is required")
  .max(COMMENT_TEXT_MAX, `Comment text is limited to ${COMMENT_TEXT_MAX} characters`);

/** Annotation fields shared by member and visitor comments; cross-field rules are in `checkAnnotation`. */
export const AnnotationFields = z.object({
  annotation_type: AnnotationType.default("NONE"),
  x: Percent.nullish(),
  y: Percent.nullish(),
  width: Percent.nullish(),
  height: Percent.nullish(),
  page: z.number().int().min(1, "Page must be 1 or more").nullish(),
  timestamp: z.number().min(0, "Timestamp must not be negative").nullish(),
  /** A range on the timeline from `timestamp` (in) to `timestamp + duration` (out), within the clip. */
  duration: z.number().positive("Duration must be positive").nullish(),
  /** DRAWING only: the shapes (drawings.ts). */
  shapes: DrawingShapesInput.nullish(),
});
export type AnnotationFields = z.infer<typeof AnnotationFields>;

/**
 * Cross-field rules: a POINT has x and y; an AREA has a size and lies inside the image; a DRAWING has
 * shapes and takes its place from them (no x, y, width or height); NONE has no coordinates; only a
 * DRAWING has shapes. (That an annotation on a video names its frame is checked against the asset.)
 */
export function annotationIssues(a: AnnotationFields): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  const has = (v: number | null | undefined) => v !== null && v !== undefined;
  if (a.annotation_type !== "DRAWING" && a.shapes != null)
    issues.push({ field: "shapes", message: "Only drawings have shapes" });
  if (a.annotation_type === "NONE") {
    for (const f of ["x", "y", "width", "height"] as const)
      if (has(a[f])) issues.push({ field: f, message: "Only annotations have coordinates" });
  } else if (a.annotation_type === "DRAWING") {
    if (a.shapes == null) issues.push({ field: "shapes", message: "A drawing needs its shapes" });
    for (const f of ["x", "y", "width", "height"] as const)
      if (has(a[f])) issues.push({ field: f, message: "A drawing takes its place from its shapes" });
  } else {
    if (!has(a.x)) issues.push({ field: "x", message: "An annotation needs x" });
    if (!has(a.y)) issues.push({ field: "y", message: "An annotation needs y" });
    if (a.annotation_type === "AREA") {
      if (!has(a.width) || a.width! <= 0) issues.push({ field: "width", message: "An area needs a width" });
      if (!has(a.height) || a.height! <= 0) issues.push({ field: "height", message: "An area needs a height" });
      if (has(a.x) && has(a.width) && a.x! + a.width! > 100.0001)
        issues.push({ field: "width", message: "The area must lie inside the image" });
      if (has(a.y) && has(a.height) && a.y! + a.height! > 100.0001)
        issues.push({ field: "height", message: "The area must lie inside the image" });
    } else {
      if (has(a.width) || has(a.height)) issues.push({ field: "width", message: "A point has no size" });
    }
  }
  if (has(a.duration) && !has(a.timestamp)) issues.push({ field: "duration", message: "A duration needs a timestamp" });
  return issues;
}

const withAnnotationRules = <T extends z.ZodType<AnnotationFields>>(schema: T) =>
  schema.superRefine((value, ctx) => {
    for (const issue of annotationIssues(value))
      ctx.addIssue({ code: "custom", path: [issue.field], message: issue.message });
  });

export const CreateCommentBody = withAnnotationRules(
  AnnotationFields.extend({
    content_type: CommentContentType,
    object_id: Id,
    text: CommentText,
    parent_id: Id.nullish(),
    severity: Severity.default("none"),
    /** The board the viewer is in (null or absent: the all-assets view). Replies take their parent's. */
    board_id: Id.nullish(),
    /** Members named with `@`; each must belong to the workspace. */
    mentions: z.array(Id).max(50).default([]),
    /** The version commented on (absent: the current one). Replies take their thread's. */
    version_id: Id.nullish(),
  }),
);
export type CreateCommentBody = z.input<typeof CreateCommentBody>;

export const UpdateCommentBody = z.object({
  text: CommentText,
  severity: Severity.optional(),
  mentions: z.array(Id).max(50).optional(),
});
export type UpdateCommentBody = z.input<typeof UpdateCommentBody>;

export const ResolveCommentBody = z.object({ resolved: z.boolean() });

/** `board_id=null` (the text) lists global comments only; a board id, that board's; absent, all. */
export const CommentsQuery = z.object({
  content_type: CommentContentType,
  object_id: Id,
  parent_id: Id.optional(),
  board_id: z.union([Id, z.literal("null")]).optional(),
  /** Opaque cursor from `next_cursor`. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(COMMENT_PAGE_MAX).default(COMMENT_PAGE_SIZE),
  /**
   * Top-level comments of one version; absent: the current version's, unless `all_versions=true`
   * (every version's). Replies (`parent_id`) are their thread's, whatever the version.
   */
  version_id: Id.optional(),
  all_versions: z
    .enum(["true", "false"], { message: "all_versions is true or false" })
    .transform((v) => v === "true")
    .optional(),
});
export type CommentsQuery = z.input<typeof CommentsQuery>;

export const CommentPage = z.object({
  results: z.array(Comment),
  /** Pass as `cursor` for the next page; null on the last. */
  next_cursor: z.string().nullable(),
  /** How many comments match in all (top-level comments, or replies of the thread). */
  count: z.number().int(),
});
export type CommentPage = z.infer<typeof CommentPage>;

export const CommentParams = z.object({ id: Id, commentId: Id });
export const DeleteCommentAnswer = z.object({ status: z.literal("ok"), deleted: z.number().int() });

export const COMMENT_EXPORT_FORMATS = ["csv", "pdf"] as const;
export const CommentsExportQuery = z.object({
  content_type: z.enum(["asset", "board"]),
  object_id: Id,
  format: z.enum(COMMENT_EXPORT_FORMATS).default("csv"),
});

/**
 * Server-Sent Events of `GET /workspaces/{ws}/events` (event name = `type`). Payloads carry ids only;
 * clients refetch what they show.
 */
export const LiveEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.enum(["comment.created", "comment.updated", "comment.deleted", "comment.resolved"]),
    asset_id: Id,
    comment_id: Id,
    thread_id: Id,
    parent_id: Id.nullable(),
  }),
  z.object({ type: z.literal("asset.status"), asset_id: Id, status: z.string() }),
  /**
   * Versions (issue 29): the current version, the number of versions or the newer one in progress
   * changed; or a version that is not current settled (`version_id` with its `status`: COMPLETED, or
   * error when its processing failed).
   */
  z.object({
    type: z.literal("asset.version"),
    asset_id: Id,
    current_version_id: Id,
    version_count: z.number().int(),
    version_id: Id.optional(),
    status: z.string().optional(),
  }),
  /** Approvals (issue 30): a decision was made; a review's state, or an asset's status in it, changed. */
  z.object({ type: z.literal("review.decision"), review_id: Id, asset_id: Id, decision_id: Id }),
  z.object({ type: z.literal("review.state"), review_id: Id, state: z.string() }),
  z.object({ type: z.literal("review.asset"), review_id: Id, asset_id: Id, status: z.string() }),
]);
export type LiveEvent = z.infer<typeof LiveEvent>;

/** Spec 02 §8 Comments: every toast, fallback and fixed text of the comment drawer. */
export const COMMENT_MESSAGES = {
  fetchFailed: "Failed to fetch comments",
  createFailed: "Failed to create comment",
  updateFailedStore: "Failed to update comment",
  deleteFailedStore: "Failed to delete comment",
  updateFailed: "Failed to update comment",
  replyFailed: "Failed to post reply",
  deleteFailed: "Failed to delete comment",
  repliesFailed: "Failed to load replies",
  postFailed: "Failed to post comment",
  updated: "Comment updated successfully",
  replyPosted: "Reply posted successfully",
  deleted: "Comment deleted successfully",
  posted: "Comment posted successfully!",
  deleteTitle: "Delete Comment",
  deleteBody: "Are you sure you want to delete this comment? This action cannot be undone.",
  viewOnlyShared: "Comments are view-only in this shared link",
  anonymous: "Anonymous",
  retry: "Retry",
  hideReplies: "Hide replies",
} as const;

/** "Show 1 reply" / "Show N replies". */
/** Spec 02 §4: the toggle reads "Show N reply/replies" — "reply" for one, "replies" otherwise. */
export const showRepliesLabel = (n: number) => `Show ${n} ${n === 1 ? "reply" : "replies"}`;
