import { z } from "zod";
import { ShareFlags } from "./access.ts";
import { Id } from "./common.ts";

/**
 * Share links (spec 02 §3 Share link, §4, §5, §6, §7; DESIGN.md §9): one link per (content, board
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
  created_at: z.string(),
  updated_at: z.string(),
});
export type ShareLink = z.infer<typeof ShareLink>;

export const ShareLinkParams = z.object({ id: Id, contentType: ShareContentType, objectId: Id });
export const ShareLinkQuery = z.object({ board_id: Id.optional() });

/** Spec 02 §7: the flags, is_active, and optional expiry and password (sent only when set). */
export const UpdateShareLinkBody = ShareFlags.partial().extend({
  is_active: z.boolean().optional(),
  /** null clears the expiry. */
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  /** A new password; null (or "") removes protection. */
  password: z.string().max(SHARE_PASSWORD_MAX).nullable().optional(),
  board_id: Id.optional(),
});
export type UpdateShareLinkBody = z.input<typeof UpdateShareLinkBody>;
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
} as const;
