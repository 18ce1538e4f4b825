import { action } from "../../platform/policy.ts";

/**
 * Review requests (issue 30). Every member sees the workspace's reviews and their reports; EDITOR and
 * ADMIN ask for one; the requester (whatever their role) and ADMINs change, cancel and reopen it and
 * manage its outside reviewers' links (`manage` is the ADMIN's ability, the requester's is checked by
 * the service); a reviewer of the active stage decides, for which COMMENTER is enough. Outside
 * reviewers act through their review link (kind.ts): what they may do on the review's assets is the
 * access layer's visitor check (the review's assets, comments), not an action here.
 */
export const REVIEW = {
  view: action("review.view", "view"),
  create: action("review.create", "edit"),
  manage: action("review.manage", "admin"),
  decide: action("review.decide", "comment"),
};
