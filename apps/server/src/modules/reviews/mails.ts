import { DECISION_LABELS, STATUS_LABELS } from "@hangar/contract";
import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import { composeMail } from "../../mail/compose.ts";
import type { Mailer, MailMessage } from "../../mail/mailer.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import { factsRepo, type ReviewerFact } from "./facts-repo.ts";
import { reviewerName } from "./kind.ts";
import { listRepo } from "./list-repo.ts";
import { type ClaimedDecision, mailRepo } from "./mail-repo.ts";
import { type ReviewRow, reviewsRepo } from "./repo.ts";
import { displayName } from "./serialize.ts";

/**
 * Review mails to one address per hour. Counted apart from the account mails (sign-up, reset,
 * invitations: `mail:…` keys), so a busy review never keeps someone from resetting their password,
 * and the requester's decision mails are gathered (below) so a review never reaches this either.
 */
export const REVIEW_MAIL_LIMIT: Limit = { max: 100, windowSeconds: 3600 };
/** Decisions after a review's first mailed one are gathered this long into one mail. */
export const DIGEST_WINDOW_MS = 10 * 60_000;

/** A clock the scheduled mails read (tests move it). */
export interface Clock {
  now(): Date;
}

const when = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
const decisionLine = (name: string, d: ClaimedDecision) =>
  `${name}: ${DECISION_LABELS[d.decision]} — “${d.asset_name}” (version ${d.version_number})${d.note ? `\n“${d.note}”` : ""}`;

/**
 * The review mails (issue 30): asked to review (when a reviewer's stage starts, with the due date and
 * their link), each decision to the requester (the first of a review at once, those within the next
 * 10 minutes in one mail at the window's end), the review done, a reminder 24 hours before the due
 * date and one when it passed. Each is claimed before it is sent (mail-repo.ts): `flush` sends what a
 * review has due now (called after each change), `sweep` every review's and the reminders (scheduled).
 */
export function createReviewMails(deps: {
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  publicUrl: string;
  clock: Clock;
  log: Logger;
}) {
  const { db } = deps;
  const memberUrl = (r: ReviewRow) => `${deps.publicUrl}/w/${r.workspace_id}/reviews/${r.id}`;
  const linkOf = (r: ReviewRow, who: ReviewerFact) =>
    who.token ? `${deps.publicUrl}/review/${who.token}` : memberUrl(r);
  const addressOf = (who: ReviewerFact) => (who.token ? who.email : who.member_email);
  const nameOf = (who: ReviewerFact) => (who.token ? reviewerName(who) : displayName(who));

  async function send(msg: MailMessage) {
    // Counted apart from the account mails; over the limit, the mail is dropped, never the change.
    if (!(await deps.limiter.allowed([[`review-mail:to:${msg.to.toLowerCase()}`, REVIEW_MAIL_LIMIT]]))) {
      deps.log.warn({ to: msg.to, subject: msg.subject }, "review mail over the per-address limit: not sent");
      return;
    }
    await deps.mailer.send(msg);
  }

  async function context(reviewId: string) {
    const review = await mailRepo.review(db, reviewId);
    if (!review) return null;
    const [reviewers, requester, workspace] = await Promise.all([
      factsRepo.reviewers(db, reviewId),
      listRepo.person(db, review.created_by),
      reviewsRepo.workspaceName(db, review.workspace_id),
    ]);
    return { review, reviewers, requester, workspaceName: workspace };
  }
  type Context = NonNullable<Awaited<ReturnType<typeof context>>>;

  const due = (r: ReviewRow) => (r.due_at ? [`Due ${when(r.due_at)}.`] : []);

  async function ask(c: Context, who: ReviewerFact) {
    const to = addressOf(who);
    if (!to) return;
    await send(
      composeMail({
        to,
        subject: "You are asked to review on Hangar",
        paragraphs: [
          `Hi ${nameOf(who)},`,
          `${c.requester?.name ?? "Someone"} asks you to review “${c.review.title}” in ${c.workspaceName}.`,
          ...(c.review.message ? [c.review.message] : []),
          ...due(c.review),
        ],
        link: { url: linkOf(c.review, who), label: "Open the review" },
      }),
    );
  }

  async function decisions(c: Context, claimed: ClaimedDecision[]) {
    if (!c.requester || claimed.length === 0) return;
    const names = new Map(c.reviewers.map((r) => [r.id, nameOf(r)]));
    const lines = claimed.map((d) => decisionLine(names.get(d.reviewer_id) ?? "A reviewer", d));
    await send(
      composeMail({
        to: c.requester.email,
        subject: claimed.length === 1 ? "A decision on your review" : "New decisions on your review",
        paragraphs: [`Hi ${c.requester.name},`, `On “${c.review.title}”:`, ...lines],
        link: { url: memberUrl(c.review), label: "Open the review" },
      }),
    );
  }

  async function done(c: Context) {
    if (!c.requester) return;
    await send(
      composeMail({
        to: c.requester.email,
        subject: "Your review is done",
        paragraphs: [
          `Hi ${c.requester.name},`,
          `Every decision asked for in “${c.review.title}” is in: ${STATUS_LABELS[c.review.state]}.`,
        ],
        link: { url: memberUrl(c.review), label: "Open the review" },
      }),
    );
  }

  async function remind(reviewId: string, overdue: boolean) {
    const c = await context(reviewId);
    if (!c?.review.due_at) return;
    const awaited = c.reviewers.filter((r) => r.waiting > 0 && r.removed_at === null);
    for (const who of awaited) {
      const to = addressOf(who);
      if (!to) continue;
      await send(
        composeMail({
          to,
          subject: overdue ? "A review is overdue" : "A review is due within 24 hours",
          paragraphs: [
            `Hi ${nameOf(who)},`,
            overdue
              ? `“${c.review.title}” was due ${when(c.review.due_at)} and still waits for your decision on ${who.waiting} asset(s).`
              : `“${c.review.title}” is due ${when(c.review.due_at)}: ${who.waiting} asset(s) still wait for your decision.`,
          ],
          link: { url: linkOf(c.review, who), label: "Open the review" },
        }),
      );
    }
    if (overdue && c.requester)
      await send(
        composeMail({
          to: c.requester.email,
          subject: "A review is overdue",
          paragraphs: [
            `Hi ${c.requester.name},`,
            `“${c.review.title}” was due ${when(c.review.due_at)}; ${awaited.length} reviewer(s) have not decided yet.`,
          ],
          link: { url: memberUrl(c.review), label: "Open the review" },
        }),
      );
  }

  async function flush(reviewId: string, now = deps.clock.now()): Promise<void> {
    const asked = await mailRepo.claimAsked(db, reviewId, now);
    const claimed = await mailRepo.claimDecisions(db, reviewId, now);
    const isDone = await mailRepo.claimDone(db, reviewId, now);
    if (asked.length === 0 && claimed.length === 0 && !isDone) return;
    const c = await context(reviewId);
    if (!c) return;
    for (const id of asked) {
      const who = c.reviewers.find((r) => r.id === id);
      if (who) await ask(c, who);
    }
    // The window's first decision alone, at once; the ones gathered during the window together.
    for (const d of claimed.filter((x) => x.at_once)) await decisions(c, [d]);
    await decisions(
      c,
      claimed.filter((x) => !x.at_once),
    );
    if (isDone) await done(c);
  }

  return {
    flush,
    /** Flushes without failing the change that asked (a mail job's failure is the sweep's to retry). */
    async flushQuietly(reviewId: string) {
      await flush(reviewId).catch((err: Error) =>
        deps.log.warn({ err: { message: err.message }, reviewId }, "review mails: flush failed"),
      );
    },
    /** Every review's mails due at `now`, and the reminders: what the scheduled job runs. */
    async sweep(now = deps.clock.now()) {
      for (const id of await mailRepo.pending(db, now)) await flush(id, now);
      for (const id of await mailRepo.claimReminders(db, now)) await remind(id, false);
      for (const id of await mailRepo.claimOverdue(db, now)) await remind(id, true);
    },
  };
}
export type ReviewMails = ReturnType<typeof createReviewMails>;
