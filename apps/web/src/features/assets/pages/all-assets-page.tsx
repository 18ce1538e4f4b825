import { IconPhoto } from "@tabler/icons-react";
import { EmptyPanel } from "../../../ui/empty-panel";
import { PageHeader } from "../../../ui/page-header";
import { useCurrentWorkspace } from "../../workspaces/workspace-context";

/** /w/:id/b/all — the global asset view. The grid, filters and uploads arrive with the assets issue. */
export function AllAssetsPage() {
  const workspace = useCurrentWorkspace();
  return (
    <>
      <PageHeader title="All assets" description={`Every file in ${workspace.name}`} />
      <EmptyPanel
        testId="all-assets-empty"
        icon={<IconPhoto size={28} />}
        title="No assets yet"
        description="Uploads arrive soon. Images, video and documents added to this workspace will appear here."
      />
    </>
  );
}
