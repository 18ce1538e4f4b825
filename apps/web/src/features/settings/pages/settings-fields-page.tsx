import { FieldsSettings } from "../../fields/fields-settings";

export function SettingsFieldsPage() {
  return <FieldsSettings />;
}
