import { APPROVAL_STATUSES, type ApprovalStatus } from "@hangar/contract";
import { Chip, Group, Input, Stack } from "@mantine/core";
import { reviewColor, reviewLabel } from "../../../entities/review";
import type { SectionProps } from "./sections-basic";

function ApprovalChips({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: readonly ApprovalStatus[] | undefined;
  onChange: (value: ApprovalStatus[] | undefined) => void;
  testId: string;
}) {
  return (
    <Input.Wrapper label={label}>
      <Chip.Group
        multiple
        value={[...(value ?? [])]}
        onChange={(v) => onChange(v.length ? (v as ApprovalStatus[]) : undefined)}
      >
        <Group gap={6} mt={4} data-testid={testId}>
          {APPROVAL_STATUSES.map((status) => (
            <Chip key={status} value={status} size="xs" radius="sm" color={reviewColor(status)}>
              {reviewLabel(status)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
    </Input.Wrapper>
  );
}

/** Approval status (issue 30): the asset's status in the latest review holding it; "Not in review" when none. */
export function ApprovalSection({ draft, set }: SectionProps) {
  return (
    <Stack gap="sm">
      <ApprovalChips
        label="Approval status is any of"
        value={draft.approval_status?.includes}
        onChange={(v) => set(["approval_status", "includes"], v)}
        testId="filter-approval-includes"
      />
      <ApprovalChips
        label="Approval status is none of"
        value={draft.approval_status?.excludes}
        onChange={(v) => set(["approval_status", "excludes"], v)}
        testId="filter-approval-excludes"
      />
    </Stack>
  );
}
