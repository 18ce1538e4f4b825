import { REVIEW_MESSAGES, reviewState } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { notFound } from "../../platform/errors.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import type { AuditRecord } from "../audit/index.ts";
import { factsRepo } from "./facts-repo.ts";
import { listRepo } from "./list-repo.ts";
import { REVIEW } from "./policy.ts";
import { reviewsRepo } from "./repo.ts";
import { reviewCsv, reviewPdf } from "./report.ts";
import { factsOf, loadReview } from "./state.ts";

/** A file name from a title: letters, digits and a few separators only. */
const fileName = (title: string, ext: string) =>
  `${
    title
      .replace(/[^\p{L}\p{N} ._-]+/gu, "")
      .trim()
      .slice(0, 80) || "review"
  } review.${ext}`;

/** The record of a review (issue 30), for every member: CSV or PDF, from the same facts as its answer. */
export function createReviewReports(deps: {
  db: Db;
  access: Access;
  store: BlobStore;
  /** Reports are recorded in the audit log (issue 36). */
  audit?: (r: AuditRecord) => Promise<void>;
}) {
  const { db } = deps;
  return {
    async report(actor: UserActor, workspaceId: string, reviewId: string, format: "csv" | "pdf") {
      await deps.access.require(actor, REVIEW.view, inWorkspace(workspaceId));
      const review = await reviewsRepo.get(db, workspaceId, reviewId);
      if (!review) throw notFound(REVIEW_MESSAGES.notFound);
      const loaded = await loadReview(db, review);
      const [events, requester, workspaceName] = await Promise.all([
        factsRepo.events(db, reviewId),
        listRepo.person(db, review.created_by),
        reviewsRepo.workspaceName(db, workspaceId),
      ]);
      const input = {
        loaded,
        outcome: reviewState(factsOf(loaded)),
        events,
        requester: requester?.name ?? null,
        workspaceName,
      };
      await deps.audit?.({
        workspaceId,
        action: "review.report_exported",
        object: { type: "review", id: review.id, name: review.title },
        changes: { format },
      });
      if (format === "csv")
        return {
          filename: fileName(review.title, "csv"),
          contentType: "text/csv; charset=utf-8",
          body: reviewCsv(input),
        };
      return {
        filename: fileName(review.title, "pdf"),
        contentType: "application/pdf",
        body: await reviewPdf(input, deps.store),
      };
    },
  };
}
export type ReviewReports = ReturnType<typeof createReviewReports>;
