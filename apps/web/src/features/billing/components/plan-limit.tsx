import { Anchor, Text } from "@mantine/core";
import { Link } from "react-router-dom";
import { isApiError } from "../../../lib/api-client";

/** A refusal because of the workspace's plan (402, code PLAN_LIMIT). */
export const isPlanLimit = (error: unknown) => isApiError(error) && error.code === "PLAN_LIMIT";

/** The server's explanation and the way out: the subscription page, where ADMINs upgrade. */
export function PlanLimitMessage({ workspaceId, detail }: { workspaceId: string; detail: string }) {
  return (
    <Text size="sm" data-testid="plan-limit-message">
      {detail}{" "}
      <Anchor component={Link} to={`/w/${workspaceId}/settings/subscription`}>
        Upgrade the plan
      </Anchor>
    </Text>
  );
}
