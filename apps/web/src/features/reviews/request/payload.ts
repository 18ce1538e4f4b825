import type { CreateReviewBody, Member, Review, ReviewerInput, StageRule, UpdateReviewBody } from "@hangar/contract";

/**
 * The "Request review" dialog's state and the request body it becomes (issue 30). Kept apart from the
 * dialog so the rules are tested without a browser: who a typed address is, what a stage sends, which
 * mistakes the dialog names before the server would.
 */

/** A reviewer as the dialog holds one: a member (sent by user id) or an outsider's address. */
export type ReviewerEntry =
  | { kind: "member"; userId: string; name: string; email: string }
  | { kind: "email"; email: string; name?: string };

export interface StageDraft {
  /** React's key: stages are added and removed. */
  key: string;
  rule: StageRule;
  reviewers: ReviewerEntry[];
  /** Editing a review: a stage already done stays as it was (shown, not changed). */
  done?: boolean;
}

export interface RequestDraft {
  title: string;
  message: string;
  /** A `datetime-local` value ("2026-05-01T17:00", local time) or "" for none. */
  due: string;
  stages: StageDraft[];
  lock: boolean;
}

/** What is reviewed: chosen assets, or every asset of a board at that moment. */
export type ReviewTarget = { kind: "assets"; assetIds: readonly string[] } | { kind: "board"; boardId: string };

/** A stage's problem (`stage` is its index) or the form's; the text is shown where it belongs. */
export interface DraftProblem {
  field: "title" | "due" | "stages";
  stage?: number;
  message: string;
}

let nextKey = 0;
export const newStage = (): StageDraft => ({ key: `stage-${++nextKey}`, rule: "all", reviewers: [] });

export const emptyDraft = (title = ""): RequestDraft => ({
  title,
  message: "",
  due: "",
  stages: [newStage()],
  lock: true,
});

// The same shape the contract's e-mail check takes in practice: something@domain.tld, no spaces.
const EMAIL_RE = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
export const isEmail = (text: string) => EMAIL_RE.test(text.trim());

export const memberName = (m: Pick<Member, "first_name" | "last_name" | "email">) =>
  `${m.first_name} ${m.last_name}`.trim() || m.email;

export const memberEntry = (m: Member): ReviewerEntry => ({
  kind: "member",
  userId: m.user_id,
  name: memberName(m),
  email: m.email,
});

/** How two entries compare: the same member, or the same address (case aside). */
export const entryId = (e: ReviewerEntry) => (e.kind === "member" ? `user:${e.userId}` : `email:${e.email}`);

export const entryLabel = (e: ReviewerEntry) => (e.kind === "member" ? e.name : e.email);

/**
 * What typed text adds: each address in it (split at commas, semicolons, spaces), a member's address
 * becoming that member. `rest` is what was not an address (left in the box to fix).
 */
export function parseTyped(text: string, members: readonly Member[]): { entries: ReviewerEntry[]; rest: string } {
  const entries: ReviewerEntry[] = [];
  const rest: string[] = [];
  for (const part of text.split(/[\s,;]+/).filter(Boolean)) {
    const email = part.replace(/^<|>$/g, "").toLowerCase();
    if (!isEmail(email)) {
      rest.push(part);
      continue;
    }
    const member = members.find((m) => m.email.toLowerCase() === email);
    entries.push(member ? memberEntry(member) : { kind: "email", email });
  }
  return { entries, rest: rest.join(" ") };
}

/** `list` with `add` appended, leaving out those already in it. */
export function addEntries(list: readonly ReviewerEntry[], add: readonly ReviewerEntry[]): ReviewerEntry[] {
  const out = [...list];
  for (const e of add) if (!out.some((o) => entryId(o) === entryId(e))) out.push(e);
  return out;
}

/** A `datetime-local` value as an instant (local time), or null when empty or unreadable. */
export function dueInstant(local: string): Date | null {
  if (!local.trim()) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The mistakes worth naming before sending (the server says the same, later and less precisely). */
export function draftProblems(draft: RequestDraft, now: Date = new Date(), keptDue?: string): DraftProblem[] {
  const problems: DraftProblem[] = [];
  if (!draft.title.trim()) problems.push({ field: "title", message: "Give the review a title" });
  // Editing: a due date left as it was is not checked again (an overdue review keeps its date).
  if (draft.due.trim() && draft.due !== keptDue) {
    const due = dueInstant(draft.due);
    if (!due) problems.push({ field: "due", message: "Enter a valid date and time" });
    else if (due.getTime() <= now.getTime())
      problems.push({ field: "due", message: "The due date must be in the future." });
  }
  const seen = new Map<string, number>();
  draft.stages.forEach((stage, i) => {
    if (stage.reviewers.length === 0)
      problems.push({ field: "stages", stage: i, message: "A stage needs at least one reviewer" });
    for (const r of stage.reviewers) {
      const id = entryId(r);
      const first = seen.get(id);
      if (first !== undefined && first !== i)
        problems.push({ field: "stages", stage: i, message: `${entryLabel(r)} is a reviewer in more than one stage.` });
      else seen.set(id, i);
    }
  });
  return problems;
}

const reviewerInput = (e: ReviewerEntry): ReviewerInput =>
  e.kind === "member" ? e.userId : e.name ? { email: e.email, name: e.name } : e.email;
const stagesOf = (draft: RequestDraft) =>
  draft.stages.map((s) => ({ rule: s.rule, reviewers: s.reviewers.map(reviewerInput) }));

/** The body of `POST /workspaces/{ws}/reviews` for this draft (check `draftProblems` first). */
export function buildReviewBody(draft: RequestDraft, target: ReviewTarget): CreateReviewBody {
  const due = dueInstant(draft.due);
  const message = draft.message.trim();
  return {
    title: draft.title.trim(),
    ...(message ? { message } : {}),
    ...(target.kind === "assets" ? { asset_ids: [...target.assetIds] } : { board_id: target.boardId }),
    ...(due ? { due_at: due.toISOString() } : {}),
    stages: stagesOf(draft),
    lock_on_approval: draft.lock,
  };
}

/** `datetime-local`'s value (local time, minutes) for an instant. */
export function localInput(iso: string): string {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A review as the dialog edits it: its words, due date, lock and stages (an outsider keeps their name). */
export function draftFromReview(review: Review): RequestDraft {
  return {
    title: review.title,
    message: review.message,
    due: review.due_at ? localInput(review.due_at) : "",
    lock: review.lock_on_approval,
    stages: review.stages.map((stage) => ({
      ...newStage(),
      rule: stage.rule,
      done: stage.state === "done",
      reviewers: stage.reviewers.map(
        (r): ReviewerEntry =>
          r.kind === "member" && r.user_id
            ? { kind: "member", userId: r.user_id, name: r.name, email: "" }
            : { kind: "email", email: r.email ?? "", ...(r.name && r.name !== r.email ? { name: r.name } : {}) },
      ),
    })),
  };
}

/** The body of `PATCH /workspaces/{ws}/reviews/{id}`: everything the dialog shows (no due date: none). */
export function buildUpdateBody(draft: RequestDraft, keptDue?: string): UpdateReviewBody {
  const due = dueInstant(draft.due);
  return {
    title: draft.title.trim(),
    message: draft.message.trim(),
    ...(draft.due === keptDue ? {} : { due_at: due ? due.toISOString() : null }),
    stages: stagesOf(draft),
    lock_on_approval: draft.lock,
  };
}
