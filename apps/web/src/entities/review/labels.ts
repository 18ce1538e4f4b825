import { type ApprovalStatus, type ReviewState, STATUS_LABELS } from "@hangar/contract";

/**
 * How approval states look wherever they show (the Reviews page's chips, the cards' badge, the
 * viewer): the contract's words (STATUS_LABELS, the report's and mails' too) in one colour each.
 */
export const REVIEW_COLORS: Record<ApprovalStatus | ReviewState, string> = {
  none: "gray",
  open: "blue",
  in_review: "blue",
  approved: "green",
  approved_with_changes: "teal",
  changes_requested: "orange",
  rejected: "red",
  canceled: "gray",
};

export const reviewLabel = (state: ApprovalStatus | ReviewState) => STATUS_LABELS[state];
export const reviewColor = (state: ApprovalStatus | ReviewState) => REVIEW_COLORS[state];

/** "3 of 5 approved" (approved with changes counts as approved). */
export const progressText = (p: { total: number; approved: number }) => `${p.approved} of ${p.total} approved`;

const dueFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
/** "20 Mar 2026, 17:00" in the reader's locale and zone. */
export const formatWhen = (iso: string) => dueFormat.format(new Date(iso));
