import { COMMENT_MESSAGES, type Comment, type CommentAuthor } from "@hangar/contract";
import type { Grant } from "../../platform/access.ts";
import { avatarUrl } from "../users/index.ts";
import { commentAbilities } from "./policy.ts";
import type { CommentPerson, CommentRecord } from "./repo.ts";

const toPerson = (p: CommentPerson | null): CommentAuthor | null =>
  p && {
    id: p.id,
    first_name: p.first_name,
    last_name: p.last_name,
    avatar_url: avatarUrl({ id: p.id, avatar_updated_at: p.avatar_updated_at ? new Date(p.avatar_updated_at) : null }),
  };

/** The name a comment shows: the member's, the visitor's own, or "Anonymous" (spec 02 §3). */
export function authorDisplay(r: Pick<CommentRecord, "author" | "author_name">): string {
  const member = r.author ? `${r.author.first_name} ${r.author.last_name}`.trim() : "";
  return member || r.author_name?.trim() || COMMENT_MESSAGES.anonymous;
}

export function serializeComment(r: CommentRecord, grant: Grant): Comment {
  return {
    id: r.id,
    text: r.text,
    author: toPerson(r.author),
    author_display: authorDisplay(r),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    parent_id: r.parent_id,
    thread_id: r.thread_id,
    content_type: "asset",
    object_id: r.asset_id,
    board_id: r.board_id,
    severity: r.severity,
    annotation_type: r.annotation_type,
    x: r.x,
    y: r.y,
    width: r.width,
    height: r.height,
    page: r.page,
    timestamp: r.timestamp_s,
    duration: r.duration_s,
    shapes: r.shapes,
    reply_count: r.reply_count,
    resolved: r.resolved_at !== null,
    resolved_at: r.resolved_at?.toISOString() ?? null,
    resolved_by: toPerson(r.resolver),
    mentions: r.mentions,
    // A visitor learns of no other link than their own.
    share_link_id: grant.kind === "visitor" && r.share_link_id !== grant.visitor.linkId ? null : r.share_link_id,
    abilities: commentAbilities(grant, r),
    version: { id: r.version_id, number: r.version_number },
  };
}
