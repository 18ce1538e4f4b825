import { IconForms } from "@tabler/icons-react";
import { EmptyPanel } from "../../../ui/empty-panel";

export function SettingsFieldsPage() {
  return (
    <EmptyPanel
      testId="settings-fields"
      icon={<IconForms size={28} />}
      title="Custom fields — coming soon"
      description="Soon you can define fields such as status, client or usage rights, with options and colours, and fill them in on every asset."
    />
  );
}
