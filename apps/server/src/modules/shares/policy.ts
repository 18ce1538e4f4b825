import { action } from "../../platform/policy.ts";

/**
 * Share links as a whole: sharing one asset or board is ASSET.share / BOARD.share (ADMIN and EDITOR);
 * reviewing every link of the workspace, to revoke what should not be out, is the ADMIN's.
 * What a visitor may do through a link is declared by each feature's policy (flags per action).
 */
export const SHARE = {
  review: action("share.review", "admin"),
};
