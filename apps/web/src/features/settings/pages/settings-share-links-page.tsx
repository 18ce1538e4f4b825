import { useCurrentWorkspace } from "../../../entities/workspace";
import { UploadLinksReview } from "../../file-requests";
import { ShareLinksSettings } from "../../shares";

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
