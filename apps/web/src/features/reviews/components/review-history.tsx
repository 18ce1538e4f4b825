import type { Review } from "@hangar/contract";
import { Text, Timeline } from "@mantine/core";
import { formatWhen } from "../../../entities/review";

type Entry = Review["history"][number];

/** One history entry in words: "Stage 2 started", "Reopened by Ana (2 assets)". */
export function historyText(entry: Entry, names: ReadonlyMap<string, string>): string {
  const by = entry.by ? ` by ${entry.by}` : "";
  const assets =
    entry.asset_ids.length === 1
      ? ` (${names.get(entry.asset_ids[0]!) ?? "1 asset"})`
      : entry.asset_ids.length > 1
        ? ` (${entry.asset_ids.length} assets)`
        : "";
  switch (entry.type) {
    case "created":
      return `Requested${by}`;
    case "edited":
      return `Edited${by}`;
    case "stage_started":
      return `Stage ${(entry.stage ?? 0) + 1} started`;
    case "reopened":
      return `Reopened${by}${assets}`;
    case "canceled":
      return `Canceled${by}`;
    case "completed":
      return "Every decision is in";
    case "version":
      return `New version${assets}: its decisions start over`;
  }
}

/** The review's history, oldest first, with decisions in between. */
export function ReviewHistory({ review }: { review: Review }) {
  const names = new Map(review.assets.map((a) => [a.asset_id, a.name]));
  const items = [
    ...review.history.map((h) => ({ at: h.at, key: h.id, text: historyText(h, names), detail: h.detail })),
    ...review.decisions.map((d) => ({
      at: d.created_at,
      key: d.id,
      text: `${d.reviewer_name} ${decisionWord(d.decision)} “${d.asset_name}” (v${d.version_number})`,
      detail: d.note,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <Timeline bulletSize={10} lineWidth={2} data-testid="review-history">
      {items.map((item) => (
        <Timeline.Item key={item.key}>
          <Text size="sm">{item.text}</Text>
          {item.detail && (
            <Text size="xs" c="dimmed" lineClamp={3}>
              {item.detail}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {formatWhen(item.at)}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

const decisionWord = (d: Review["decisions"][number]["decision"]) =>
  ({
    approved: "approved",
    approved_with_changes: "approved (with changes)",
    changes_requested: "requested changes on",
    rejected: "rejected",
  })[d];
