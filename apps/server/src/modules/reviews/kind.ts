import { REVIEW_MESSAGES } from "@hangar/contract";
import { REVIEWER_FLAGS } from "../../platform/access-repo.ts";
import type { VisitorActor } from "../../platform/actor.ts";
import { defineLinkKind, type LinkVisit } from "../public-links/index.ts";
import { type ReviewLinkRow, reviewsRepo } from "./repo.ts";

/** The name an outside reviewer goes by: the one the requester gave, else their address. */
export const reviewerName = (r: { name: string; email: string | null }) => r.name || r.email || "Reviewer";

/**
 * Outside reviewers' links as a kind of public link (issue 30, docs/architecture.md §10): the token
 * names one reviewer of one review and opens `/review/{token}` and `/api/v1/review/{token}/…` through
 * the gate every public link passes (password, expiry, disabling, throttling). Its visitor sees the
 * review's assets only (platform/access.ts), reads and writes comments under the reviewer's name, and
 * decides. Resolved through the read cache: review_reviewers sends its workspace's key on every change.
 */
export const REVIEW_LINKS = defineLinkKind({
  name: "review",
  page: "review",
  notFound: REVIEW_MESSAGES.linkNotFound,
  lookup: reviewsRepo.linkByToken,
  cache: { table: "review_reviewers" },
  visitor: (link: ReviewLinkRow, { fresh }): VisitorActor => ({
    kind: "visitor",
    linkId: link.id,
    workspaceId: link.workspace_id,
    content: { kind: "review", id: link.review_id },
    flags: { ...REVIEWER_FLAGS },
    unlocked: true,
    passwordVersion: link.password_version,
    name: reviewerName(link),
    email: link.email ?? undefined,
    ...(fresh ? { fresh } : {}),
  }),
});

/** A visit of a review link let through the gate. */
export type ReviewVisit = LinkVisit<ReviewLinkRow, VisitorActor>;
