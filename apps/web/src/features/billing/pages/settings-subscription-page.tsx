import { Skeleton } from "@mantine/core";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { ErrorState } from "../../../ui/error-state";
import { useBilling } from "../api";
import { SubscriptionPanel } from "../components/subscription-panel";

/** Settings → Subscription (loaded on demand by the settings tabs). */
export function SettingsSubscriptionPage() {
  const workspace = useCurrentWorkspace();
  const billing = useBilling(workspace.id);
  if (billing.isPending) return <Skeleton height={240} radius="lg" />;
  if (billing.isError) {
    return (
      <ErrorState
        title="Subscription unavailable"
        message={errorMessage(billing.error, "Could not load the subscription")}
        onRetry={() => billing.refetch()}
        retrying={billing.isFetching}
      />
    );
  }
  return <SubscriptionPanel workspaceId={workspace.id} state={billing.data} />;
}
