import { type Asset, NO_RIGHTS, type ShareFlags } from "@hangar/contract";
import { linkBoard, type VisitorActor } from "../../platform/actor.ts";
import type { CommentScope } from "./view-repo.ts";

/**
 * What a share link shows of an asset (issue 27): the one place a visitor's asset answer is cut to the
 * link, driven by its flags and its board context, so every public answer (the payload, a shared
 * board's pages, one asset, a link preview) carries the same view. The link's own board is its context:
 * a visitor never learns of the other boards an asset is filed in, nor of threads made in them.
 */
export interface LinkView {
  flags: ShareFlags;
  /** The link's board: an asset link's board, or the shared board itself (null: no board context). */
  board: string | null;
}

export const linkViewOf = (v: VisitorActor): LinkView => ({ flags: v.flags, board: linkBoard(v) });

/** The comments a link's visitor counts on an asset: its board's, and the current version's unless it shows versions. */
export const linkCommentScope = (view: LinkView): CommentScope => ({
  board: view.board,
  currentVersionOnly: !view.flags.show_versions,
});

/** The asset as the link's visitors see it (the comment count is already the link's board's, see view-repo.ts). */
export function visitorAsset(asset: Asset, view: LinkView): Asset {
  const inContext = (id: string | null) => id !== null && id === view.board;
  return {
    ...asset,
    // Field values only where the link shows fields (what /custom-fields answers 403 to, no chip shows).
    field_chips: view.flags.show_custom_fields ? asset.field_chips : [],
    open_comment_count: view.flags.show_comments ? asset.open_comment_count : 0,
    boards: asset.boards.filter((b) => inContext(b.id)),
    upload_board_id: inContext(asset.upload_board_id) ? asset.upload_board_id : null,
    // Where a photo was taken travels with the file: only to whoever may download the file (the
    // renditions a visitor sees have EXIF stripped).
    exif:
      asset.exif && !view.flags.allow_downloads
        ? { ...asset.exif, latitude: null, longitude: null, altitude: null }
        : asset.exif,
    // The same bytes elsewhere in the workspace: another asset, which the link does not share.
    duplicate_of: null,
    // Other versions (one on its way included) are the members' business unless the link shows
    // versions: then the asset is its current version, alone.
    version_count: view.flags.show_versions ? asset.version_count : 1,
    newer_version: view.flags.show_versions ? asset.newer_version : null,
    // Approvals are the members' (an outside reviewer's page says what they need of them).
    approval: null,
    rights: NO_RIGHTS,
    rights_status: "none",
  };
}
