import { z } from "zod";
import { AssetPage, AssetParams, AssetSprite, DuplicateOf } from "./assets.ts";
import { Id } from "./common.ts";
import { AssetStatus, FileType } from "./uploads.ts";

/**
 * Versions of an asset (issue 29). The asset keeps its identity (id, name, boards, tags, fields,
 * favourites, share links, comments); each version is one upload of the file with its own media.
 * The asset's facts and media are its current version's. A new version becomes current when it is
 * COMPLETED, if it is newer than the current one (a later upload still processing, or one that
 * failed, never holds it back); an older one can be made current again. Versions are numbered
 * 1, 2, … in upload order; a deleted version's number is not given again.
 *
 * Who: any member sees the versions; EDITOR and ADMIN upload, make current, delete, stack and detach
 * (COMMENTER 403); outsiders 404.
 */

export const VersionParams = AssetParams.extend({ versionId: Id });

export const VersionPerson = z.object({ id: Id, name: z.string() });

export const AssetVersion = z.object({
  id: Id,
  asset_id: Id,
  number: z.number().int(),
  is_current: z.boolean(),
  /** The file's name when it was uploaded (the asset's own name may differ). */
  name: z.string(),
  status: AssetStatus,
  error: z.string().nullable(),
  file_type: FileType,
  file_extension: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  sha256: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  duration: z.number().nullable(),
  page_count: z.number().int().nullable(),
  /** The version's original, signed (null unless the caller may download). */
  url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  grid_url: z.string().nullable(),
  large_url: z.string().nullable(),
  video_url: z.string().nullable(),
  fps: z.number().nullable(),
  sprite: AssetSprite.nullable(),
  placeholder: z.string().nullable(),
  pages: z.array(AssetPage),
  preview_unavailable: z.string().nullable(),
  /** Every comment made on this version (threads and replies). */
  comment_count: z.number().int(),
  /** Top-level threads of this version not resolved yet. */
  open_comment_count: z.number().int(),
  created_at: z.string(),
  uploaded_by: VersionPerson.nullable(),
  /** When and by whom it was last made current (null: it became current by being uploaded, or never was). */
  made_current_at: z.string().nullable(),
  made_current_by: VersionPerson.nullable(),
  duplicate_of: DuplicateOf.nullable(),
});
export type AssetVersion = z.infer<typeof AssetVersion>;

/** GET …/versions: every live version, newest first. */
export const VersionList = z.array(AssetVersion);
export type VersionList = z.infer<typeof VersionList>;

/**
 * POST …/versions/stack: the assets named become versions of this one, all versions ordered by
 * upload time and numbered again from 1; the newest becomes current. Their comments follow their
 * versions; the assets themselves are gone (their boards, tags and fields with them).
 */
export const StackVersionsBody = z.object({
  asset_ids: z.array(Id).min(1, "Send at least one asset id").max(100, "At most 100 assets at once"),
});
export type StackVersionsBody = z.infer<typeof StackVersionsBody>;

/** Texts of the versions API's refusals (shown as they are). */
export const VERSION_MESSAGES = {
  notFound: "Version not found.",
  lastVersion: "An asset keeps at least one version: delete the asset instead.",
  detachOnly: "This is the asset's only version: there is nothing to detach it from.",
  notFinished: "This version is not processed yet: wait until it is COMPLETED.",
  busy: (name: string) => `“${name}” is still uploading or processing: stack it once it is done.`,
  stackSelf: "An asset cannot be stacked onto itself.",
  /** Deleting the current version while the only other ones are still being processed. */
  noneToPromote: "No other version is processed yet: wait for it before deleting the current version.",
  /** A share link's visitor asking for another version than the current one, the link not showing versions. */
  linkCurrentOnly: "This link shows the current version only.",
} as const;
