import type { AssetAbilities } from "@hangar/contract";
import { allows, type Grant } from "../../platform/access.ts";
import { action, anyVisitor } from "../../platform/policy.ts";

/**
 * What may be done to assets. Visitors see the assets their link shares; they download or comment
 * only when the link's flags allow it, and never change an asset.
 */
export const ASSET = {
  view: action("asset.view", "view", anyVisitor),
  list: action("asset.list", "view"),
  edit: action("asset.edit", "edit"),
  tag: action("asset.tag", "edit"),
  move: action("asset.move", "edit"),
  delete: action("asset.delete", "edit"),
  /** The caller's own favourite: every member, COMMENTER too. */
  favorite: action("asset.favorite", "view"),
  comment: action("asset.comment", "comment", (f) => f.allow_commenting),
  share: action("asset.share", "edit"),
  download: action("asset.download", "view", (f) => f.allow_downloads),
  /** Versions (issue 29): upload, make current, delete, stack, detach. */
  version: action("asset.version", "edit"),
  /**
   * Seeing versions other than the current one (the list, their media): every member; a visitor when
   * the link shows versions.
   */
  versions: action("asset.versions", "view", (f) => f.show_versions),
};

export const assetAbilities = (grant: Grant): AssetAbilities => ({
  edit: allows(grant, ASSET.edit),
  delete: allows(grant, ASSET.delete),
  comment: allows(grant, ASSET.comment),
  share: allows(grant, ASSET.share),
  download: allows(grant, ASSET.download),
});
