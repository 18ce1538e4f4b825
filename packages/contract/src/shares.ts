import { z } from "zod";
import { ShareFlags } from "./access.ts";
import { Asset } from "./assets.ts";
import { AnnotationFields, annotationIssues, Comment, CommentText, Severity } from "./comments.ts";
import { Id } from "./common.ts";
import { CustomField, FIELD_TEXT_MAX, FieldValue, oneValueKind } from "./fields.ts";
import { AssetListAnswer } from "./listing.ts";
import { Watermark } from "./watermarks.ts";

/**
 * Share links (spec 02 §3 Share link, §4, §5, §6, §7; docs/architecture.md §9): one link per (content, board
 * context); an asset's link is bound to a board ("board_id is required when sharing assets"). Tokens
 * are 256 random bits, URL-safe. A password is stored as an argon2id hash, never answered (only
 * whether one is set), and travels only in the `X-Share-Password` header.
 */
export const SHARE_CONTENT_TYPES = ["asset", "board"] as const;
export const ShareContentType = z.enum(SHARE_CONTENT_TYPES);
export type ShareContentType = z.infer<typeof ShareContentType>;
export const SHARE_PASSWORD_HEADER = "x-share-password";
export const SHARE_PASSWORD_MAX = 200;
export const BOARD_REQUIRED = "board_id is required when sharing assets";

export const ShareLink = ShareFlags.extend({
  id: Id,
  token: z.string(),
  /** Relative: the public page is the current origin plus this (`/s/{token}`). */
  path: z.string(),
  content_type: ShareContentType,
  object_id: Id,
  board_id: Id.nullable(),
  is_active: z.boolean(),
  expires_at: z.string().nullable(),
  /** Whether a password protects it (the password itself is never answered). */
  has_password: z.boolean(),
  /** What visitors' pictures carry (issue 33); null: none. */
  watermark: Watermark.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ShareLink = z.infer<typeof ShareLink>;

/** What a link was used for, counted per link (issue 17 "Activity"), shown in the share dialog. */
export const SHARE_ACTIVITY_KINDS = ["open", "view", "download", "comment", "field_edit"] as const;
export const ShareActivityKind = z.enum(SHARE_ACTIVITY_KINDS);
export type ShareActivityKind = z.infer<typeof ShareActivityKind>;
export const ShareActivity = z.object({
  kind: ShareActivityKind,
  count: z.number().int(),
  last_at: z.string(),
});
export type ShareActivity = z.infer<typeof ShareActivity>;
export const ShareLinkWithActivity = ShareLink.extend({ activity: z.array(ShareActivity) });
export type ShareLinkWithActivity = z.infer<typeof ShareLinkWithActivity>;

/** Every link of a workspace with its content's name (the ADMIN's review page). */
export const ShareLinkSummary = ShareLinkWithActivity.extend({
  content_name: z.string(),
  board_name: z.string().nullable(),
  created_by_name: z.string().nullable(),
});
export type ShareLinkSummary = z.infer<typeof ShareLinkSummary>;
export const ShareLinkSummaryList = z.array(ShareLinkSummary);

export const ShareLinkParams = z.object({ id: Id, contentType: ShareContentType, objectId: Id });
export const ShareLinkQuery = z.object({ board_id: Id.optional() });

/** Spec 02 §7: the flags, is_active, and optional expiry and password (sent only when set). */
export const UpdateShareLinkBody = ShareFlags.partial().extend({
  is_active: z.boolean().optional(),
  /** null clears the expiry. */
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  /** A new password; null (or "") removes protection. */
  password: z.string().max(SHARE_PASSWORD_MAX).nullable().optional(),
  /**
   * The asset link's board context. The spec's client sends it in every PUT, null for a board's own
   * link: null and absent are the same (an asset link without one is refused: BOARD_REQUIRED).
   */
  board_id: Id.nullish(),
  /** A watermark on what visitors see; null removes it. */
  watermark: Watermark.nullable().optional(),
});
export type UpdateShareLinkBody = z.input<typeof UpdateShareLinkBody>;
export const ShareTokenParams = z.object({ token: z.string().min(1).max(200) });

/** Spec 02 §3 Shared payload: the settings a visitor's UI obeys, with the content type. */
export const ShareSettings = ShareFlags.extend({
  content_type: ShareContentType,
  has_password: z.boolean(),
  expires_at: z.string().nullable(),
  /** Visitors' pictures are watermarked (a video plays once its watermarked copy is made). */
  watermarked: z.boolean(),
});
export type ShareSettings = z.infer<typeof ShareSettings>;

export const SharedBoardRef = z.object({ id: Id, name: z.string(), child_count: z.number().int() });
/** A board of a shared board's subtree: its children to browse and the path down from the shared root. */
export const SharedBoard = z.object({
  id: Id,
  name: z.string(),
  /** From the shared root (first) to this board's parent; empty at the root. */
  path: z.array(z.object({ id: Id, name: z.string() })),
  children: z.array(SharedBoardRef),
});
export type SharedBoard = z.infer<typeof SharedBoard>;

/** A field value as a visitor sees it: with its field (spec 02 §3 "each value carries a nested field"). */
export const SharedFieldValue = FieldValue.extend({ field: CustomField });
export type SharedFieldValue = z.infer<typeof SharedFieldValue>;
/** Every field of the workspace, each with the asset's value or null: what the shared fields tab edits. */
export const SharedFieldEntry = z.object({ field: CustomField, value: FieldValue.nullable() });
export const SharedFieldList = z.array(SharedFieldEntry);

export const SharedPayload = z.object({
  share_settings: ShareSettings,
  workspace_name: z.string(),
  /** An asset link: the asset. */
  asset: Asset.nullable(),
  /** A board link: the shared board (its own assets come paged from the assets call). */
  board: SharedBoard.nullable(),
  /** An asset link's top-level comments, when the link shows comments (else null). */
  comments: z.array(Comment).nullable(),
  /** An asset link's field values with their fields, when the link shows fields (else null). */
  custom_fields: z.array(SharedFieldValue).nullable(),
});
export type SharedPayload = z.infer<typeof SharedPayload>;

export const SharedAssetsQuery = z.object({
  board_id: Id.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});
export const SharedBoardQuery = z.object({ board_id: Id.optional() });
/** A zip of a board of the shared subtree (the shared board itself when absent), with downloads allowed. */
export const SharedDownloadBody = z.object({ board_id: Id.optional() });
export const SharedAssetParams = z.object({ token: z.string().min(1).max(200), assetId: Id });
export const SharedFieldParams = z.object({ token: z.string().min(1).max(200), fieldId: Id });
export const SharedAssetPage = AssetListAnswer;

/** Spec 02 §5: a visitor's name and e-mail are optional and trimmed; empty is sent as null. */
const VisitorName = z
  .string()
  .trim()
  .max(100)
  .nullish()
  .transform((v) => (v ? v : null));
const VisitorEmail = z
  .string()
  .trim()
  .max(254)
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), "Enter a valid e-mail address");

/** POST /share/{token}/comments (spec 02 §7): the asset comes from the link (or object_id inside a board link). */
export const SharedCommentBody = AnnotationFields.extend({
  object_id: Id.optional(),
  text: CommentText,
  parent_id: Id.nullish(),
  /** The version commented on (absent: the current one); another version needs the link's `show_versions`. */
  version_id: Id.nullish(),
  severity: Severity.default("none"),
  author_name: VisitorName,
  author_email: VisitorEmail,
}).superRefine((value, ctx) => {
  for (const issue of annotationIssues(value))
    ctx.addIssue({ code: "custom", path: [issue.field], message: issue.message });
});
export type SharedCommentBody = z.input<typeof SharedCommentBody>;

export const SharedCommentsQuery = z.object({
  object_id: Id.optional(),
  parent_id: Id.optional(),
  /**
   * Versions (issue 29), with the link's `show_versions` only (else 403): one version's threads, or
   * every version's (`all_versions=true`); absent: the current version's.
   */
  version_id: Id.optional(),
  all_versions: z
    .enum(["true", "false"], { message: "all_versions is true or false" })
    .transform((v) => v === "true")
    .optional(),
});

/** PUT /share/{token}/custom-fields/{fieldId} (spec 02 §7): one value kind on the shared asset. */
export const SharedFieldValueBody = z
  .object({
    /** Inside a board link: which asset (an asset link's own asset when absent). */
    asset_id: Id.optional(),
    option_value_id: Id.nullable().optional(),
    multi_option_ids: z.array(Id).max(100).optional(),
    text_value: z.string().max(FIELD_TEXT_MAX).optional(),
    date_value: z.iso.date().nullable().optional(),
    editor_name: VisitorName,
    editor_email: VisitorEmail,
  })
  .superRefine(oneValueKind);
export type SharedFieldValueBody = z.input<typeof SharedFieldValueBody>;
export const SharedFieldValueAnswer = z.object({ success: z.literal(true), value: FieldValue.nullable() });

export const DeleteShareLinkAnswer = z.object({ status: z.literal("ok") });

/** Spec 02 §8: the share dialog's and the public page's texts. */
export const SHARE_MESSAGES = {
  getFailed: "Failed to get share link",
  updateFailed: "Failed to update share link",
  deleteFailed: "Failed to delete share link",
  openFailed: "Failed to open share dialog: ",
  openBoardFailed: "Failed to open board share dialog: ",
  copied: "Link copied to clipboard",
  copyFailed: "Failed to copy link",
  expired: "Link has expired or is no longer valid",
  passwordRequired: "Password required",
  accessFailed: "Failed to access shared content",
  downloadFailed: "Failed to download",
  previewLink: "Preview Link",
  sharingOptions: "Sharing options",
  showCustomFields: "Show custom fields",
  anonymousTitle: "Post Comment or Edit Custom Field",
  commentsViewOnly: "Comments are view-only in this shared link",
  wrongPassword: "Incorrect password",
  /** Spec 02 §4 Share link: the summary label by state. */
  summary: {
    disabled: "Disabled",
    limited: "Limited visibility",
    viewOnly: "View-only",
    full: "Full collaboration",
    comment: "Comment mode",
    edit: "Edit mode",
  },
} as const;

/** Spec 02 §4: the summary label of a link by its state, first rule that holds. */
export function shareSummary(l: Pick<ShareLink, keyof ShareFlags | "is_active">): string {
  const m = SHARE_MESSAGES.summary;
  if (!l.is_active) return m.disabled;
  if (!l.show_comments && !l.show_custom_fields) return m.limited;
  const comments = l.show_comments && l.allow_commenting;
  const fields = l.show_custom_fields && l.allow_editing_custom_fields;
  if (comments && fields) return m.full;
  if (comments) return m.comment;
  if (fields) return m.edit;
  return m.viewOnly;
}

/** Where anonymous visitors' name and e-mail are kept in the browser (spec 02 §3: one key). */
export const ANONYMOUS_INFO_KEY = "hangar.anonymous-user-info";
