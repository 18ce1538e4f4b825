import { ShareLinksSettings } from "../../shares/share-links-settings";
import { useCurrentWorkspace } from "../../workspaces";

export function SettingsShareLinksPage() {
  const workspace = useCurrentWorkspace();
  return <ShareLinksSettings workspaceId={workspace.id} />;
}
