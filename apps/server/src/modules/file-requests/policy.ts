import { action } from "../../platform/policy.ts";

/**
 * Request-files links: whoever may add to a board (ADMIN, EDITOR) makes, edits and deletes the links
 * that let outsiders upload into it, and sees what came through them; reviewing every link of the
 * workspace, to revoke what should not be out, is the ADMIN's (as share links). Visitors of a link
 * never manage one: what they may do (upload, within the caps) is the link's kind's, not an action here.
 */
export const FILE_REQUEST = {
  manage: action("file_request.manage", "edit"),
  review: action("file_request.review", "admin"),
};
