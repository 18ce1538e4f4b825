import { IconPhoto } from "@tabler/icons-react";
import { EmptyPanel } from "../../../ui/empty-panel";
import { PageHeader } from "../../../ui/page-header";
import { SessionUploadsGrid } from "../../uploads/components/session-uploads-grid";
import { useUploads } from "../../uploads/upload-store";
import { useCurrentWorkspace } from "../../workspaces/workspace-context";

/** /w/:id/b/all — the global asset view. The grid, filters and uploads arrive with the assets issue. */
export function AllAssetsPage() {
  const workspace = useCurrentWorkspace();
  // Until the asset grid exists, what was uploaded in this session shows here (and not "No assets yet").
  const uploadedHere = useUploads((s) =>
    s.items.some((item) => item.workspaceId === workspace.id && item.status === "COMPLETED"),
  );
  return (
    <>
      <PageHeader title="All assets" description={`Every file in ${workspace.name}`} />
      <SessionUploadsGrid workspaceId={workspace.id} />
      {!uploadedHere && (
        <EmptyPanel
          testId="all-assets-empty"
          icon={<IconPhoto size={28} />}
          title="No assets yet"
          description="Use Upload to add images, video, documents or whole folders; they will appear here."
        />
      )}
    </>
  );
}
