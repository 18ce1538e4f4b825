import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Access } from "../../platform/access.ts";
import type { RateLimiter } from "../../platform/rate-limit.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import type { AssetsService } from "../assets/index.ts";
import type { AuditRecord } from "../audit/index.ts";
import type { CommentsService } from "../comments/index.ts";
import type { PublicLinks } from "../public-links/index.ts";
import { createReviewDecisions } from "./decide.ts";
import { type Clock, createReviewMails } from "./mails.ts";
import { createReviewLinks } from "./public-service.ts";
import { createReviewReports } from "./report-service.ts";
import { createReviewsService } from "./service.ts";

export { REVIEW_LINKS, type ReviewVisit } from "./kind.ts";
export { type Clock, DIGEST_WINDOW_MS, REVIEW_MAIL_LIMIT } from "./mails.ts";
export { REVIEW } from "./policy.ts";

/**
 * Approvals (issue 30): review requests with stages, reviewers and due dates (service.ts), decisions
 * and what versions ask of reviews (decide.ts), outside reviewers' links (a kind of public link:
 * kind.ts, public-service.ts), the mails (mails.ts, their scheduled sweep in jobs/review-mails.ts) and
 * the record (report.ts). States are derived from the decisions by the contract's `reviewState`.
 */
export function createReviews(deps: {
  db: Db;
  access: Access;
  assets: Pick<AssetsService, "get" | "many">;
  comments: Pick<CommentsService, "list" | "create">;
  mailer: Mailer;
  limiter: RateLimiter;
  links: PublicLinks;
  store: BlobStore;
  publicUrl: string;
  clock: Clock;
  log: Logger;
  audit?: (r: AuditRecord) => Promise<void>;
}) {
  const { db, access, clock, limiter } = deps;
  const mails = createReviewMails({
    db,
    mailer: deps.mailer,
    limiter,
    publicUrl: deps.publicUrl,
    clock,
    log: deps.log,
  });
  const decisions = createReviewDecisions({ db, access, comments: deps.comments, mails, clock });
  const reviews = createReviewsService({ db, access, assets: deps.assets, mails, limiter, clock });
  const links = createReviewLinks({
    db,
    links: deps.links,
    assets: deps.assets,
    comments: deps.comments,
    decisions,
    limiter,
    clock,
  });
  const reports = createReviewReports({ db, access, store: deps.store, audit: deps.audit });
  return { reviews, decisions, links, reports, mails };
}
export type Reviews = ReturnType<typeof createReviews>;
