import { UploadLinksReview } from "../../file-requests/upload-links-review";
import { ShareLinksSettings } from "../../shares/share-links-settings";
import { useCurrentWorkspace } from "../../workspaces";

/** Settings → Share links (ADMIN): the share links, then the upload links (file requests). */
export function SettingsShareLinksPage() {
  const workspace = useCurrentWorkspace();
  return (
    <>
      <ShareLinksSettings workspaceId={workspace.id} />
      <UploadLinksReview workspaceId={workspace.id} />
    </>
  );
}
