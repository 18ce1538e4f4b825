import type { ApprovalStatus, ReviewState } from "@hangar/contract";
import { Badge, type BadgeProps } from "@mantine/core";
import { reviewColor, reviewLabel } from "./labels";

/** A review's state or an asset's approval status as a coloured chip ("Changes requested"). */
export function ReviewStateBadge({
  state,
  ...props
}: { state: ApprovalStatus | ReviewState } & Omit<BadgeProps, "color" | "children">) {
  return (
    <Badge variant="light" color={reviewColor(state)} tt="none" data-state={state} {...props}>
      {reviewLabel(state)}
    </Badge>
  );
}
