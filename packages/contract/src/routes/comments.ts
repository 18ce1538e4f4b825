import {
  Comment,
  CommentPage,
  CommentParams,
  CommentsExportQuery,
  CommentsQuery,
  CreateCommentBody,
  DeleteCommentAnswer,
  ResolveCommentBody,
  UpdateCommentBody,
} from "../comments.ts";
import { COMMENT_BODY_LIMIT } from "../drawings.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "comments";
const access = "workspace";

export const commentsApi = {
  list: defineRoute({
    method: "GET",
    path: "/workspaces/:id/comments",
    tag,
    access,
    summary:
      "Top-level comments of an asset (each with its reply count), or with parent_id every reply of that thread, flat",
    params: WorkspaceParams,
    query: CommentsQuery,
    response: { 200: CommentPage },
  }),
  create: defineRoute({
    method: "POST",
    path: "/workspaces/:id/comments",
    summary: "Comment on an asset, or reply to a thread, optionally with an annotation or drawing",
    tag,
    access,
    params: WorkspaceParams,
    body: CreateCommentBody,
    bodyLimit: COMMENT_BODY_LIMIT,
    response: { 201: Comment },
  }),
  get: defineRoute({
    method: "GET",
    path: "/workspaces/:id/comments/:commentId",
    tag,
    access,
    summary: "One comment or reply (a mention's link opens the asset at it: its thread, page and time)",
    params: CommentParams,
    response: { 200: Comment },
  }),
  update: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/comments/:commentId",
    tag,
    access,
    summary: "Edit the text (the author only)",
    params: CommentParams,
    body: UpdateCommentBody,
    response: { 200: Comment },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/comments/:commentId",
    tag,
    access,
    summary: "Delete a comment (the author or an ADMIN); a thread's root takes its replies with it",
    params: CommentParams,
    response: { 200: DeleteCommentAnswer },
  }),
  resolve: defineRoute({
    method: "POST",
    path: "/workspaces/:id/comments/:commentId/resolve",
    tag,
    access,
    summary: "Resolve or reopen a thread (its author or an editor)",
    params: CommentParams,
    body: ResolveCommentBody,
    response: { 200: Comment },
  }),
  export: defineRoute({
    method: "GET",
    path: "/workspaces/:id/comments/export",
    tag,
    access,
    summary: "An asset's or a board's comments as CSV or as a printable PDF with the annotations drawn",
    params: WorkspaceParams,
    query: CommentsExportQuery,
    answer: "bytes",
    produces: ["text/csv", "application/pdf"],
  }),
};
