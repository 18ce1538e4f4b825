import { type CommentAbilities, roleCan } from "@hangar/contract";
import { allows, type Grant } from "../../platform/access.ts";
import { action } from "../../platform/policy.ts";

/**
 * What may be done with comments (spec 02 §6). Every role comments; the author edits; the author or an
 * ADMIN deletes; the thread's author or an editor resolves. A share-link visitor reads them when the
 * link shows comments and writes when it also allows commenting, and never edits, deletes or resolves.
 */
export const COMMENT = {
  view: action("comment.view", "view", (f) => f.show_comments),
  create: action("comment.create", "comment", (f) => f.show_comments && f.allow_commenting),
  edit: action("comment.edit", "comment"),
  delete: action("comment.delete", "comment"),
  resolve: action("comment.resolve", "comment"),
  export: action("comment.export", "view"),
  /** Reading or writing on a version other than the current one (issue 29): a visitor needs show_versions. */
  versions: action("comment.versions", "view", (f) => f.show_comments && f.show_versions),
};

export interface CommentOwnership {
  author_id: string | null;
  /** The author of the thread's top-level comment. */
  thread_author_id: string | null;
}

const isAuthor = (grant: Grant, authorId: string | null) =>
  grant.kind === "member" && authorId !== null && grant.userId === authorId;

export const canEditComment = (grant: Grant, c: CommentOwnership) => isAuthor(grant, c.author_id);
export const canDeleteComment = (grant: Grant, c: CommentOwnership) =>
  isAuthor(grant, c.author_id) || (grant.kind === "member" && roleCan(grant.role, "admin"));
export const canResolveComment = (grant: Grant, c: CommentOwnership) =>
  isAuthor(grant, c.thread_author_id) || (grant.kind === "member" && roleCan(grant.role, "edit"));

export const commentAbilities = (grant: Grant, c: CommentOwnership): CommentAbilities => ({
  edit: canEditComment(grant, c),
  delete: canDeleteComment(grant, c),
  reply: allows(grant, COMMENT.create),
  resolve: canResolveComment(grant, c),
});
