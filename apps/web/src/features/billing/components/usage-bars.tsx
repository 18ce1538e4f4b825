import { type BillingState, formatBytes } from "@hangar/contract";
import { Progress, Stack, Text } from "@mantine/core";

function UsageBar({ label, used, limit, text }: { label: string; used: number; limit: number; text: string }) {
  const pct = limit > 0 ? Math.min(100, (used / limit) * 100) : 100;
  const over = used > limit;
  return (
    <Stack gap={4} data-testid={`usage-${label.toLowerCase()}`}>
      <Text size="sm" fw={500}>
        {label}{" "}
        <Text span size="sm" c={over ? "red" : "dimmed"}>
          {text}
        </Text>
      </Text>
      <Progress value={pct} color={over ? "red" : pct > 85 ? "orange" : "blue"} aria-label={`${label} used`} />
    </Stack>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Storage and seats against the plan's limits (over the limit shows red; nothing is removed). */
export function UsageBars({ state }: { state: BillingState }) {
  const { usage, plan, enabled } = state;
  const storageText = enabled
    ? `${formatBytes(usage.storage_bytes)} of ${formatBytes(plan.limits.storage_bytes)}`
    : `${formatBytes(usage.storage_bytes)} (no limit)`;
  const seatsText = enabled
    ? `${usage.seats} of ${plan.limits.seats} (${plural(usage.members, "member")}, ${plural(usage.pending_invites, "pending invitation")})`
    : `${usage.seats} (no limit)`;
  return (
    <Stack gap="md">
      <UsageBar
        label="Storage"
        used={usage.storage_bytes}
        limit={enabled ? plan.limits.storage_bytes : Number.POSITIVE_INFINITY}
        text={storageText}
      />
      <UsageBar
        label="Seats"
        used={usage.seats}
        limit={enabled ? plan.limits.seats : Number.POSITIVE_INFINITY}
        text={seatsText}
      />
      {enabled && (
        <Text size="xs" c="dimmed">
          Largest file on this plan: {formatBytes(plan.limits.max_upload_bytes)}.
        </Text>
      )}
    </Stack>
  );
}
