import { FieldsSettings } from "../../fields";

export function SettingsFieldsPage() {
  return <FieldsSettings />;
}
