import { IconCreditCard } from "@tabler/icons-react";
import { EmptyPanel } from "../../../ui/empty-panel";

export function SettingsSubscriptionPage() {
  return (
    <EmptyPanel
      testId="settings-subscription"
      icon={<IconCreditCard size={28} />}
      title="Subscription — coming soon"
      description="Plans, billing and checkout for this workspace will be managed here. There is nothing to set up yet."
    />
  );
}
