import { Alert, Anchor } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { Link } from "react-router-dom";
import { useBilling } from "../api";
import { formatDate } from "../format";

/** Shown to ADMINs above every workspace page while a payment has failed (nothing is deleted). */
export function PastDueBanner({ workspaceId }: { workspaceId: string }) {
  const billing = useBilling(workspaceId);
  const s = billing.data;
  if (!s?.enabled || s.status !== "past_due") return null;
  return (
    <Alert
      color="red"
      icon={<IconAlertTriangle size={18} />}
      mb="md"
      data-testid="past-due-banner"
      title="Payment failed"
    >
      The last payment for the {s.subscribed_plan ? s.plans.find((p) => p.key === s.subscribed_plan)?.name : ""} plan
      failed. Unless the card is updated, the limits return to the free plan's on {formatDate(s.limits_until)}; nothing
      is deleted.{" "}
      <Anchor component={Link} to={`/w/${workspaceId}/settings/subscription`}>
        Update the payment
      </Anchor>
    </Alert>
  );
}
