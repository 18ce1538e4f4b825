import { canEdit } from "@hangar/contract";
import { IconPhoto } from "@tabler/icons-react";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { EmptyPanel } from "../../../ui/empty-panel";
import { PageHeader } from "../../../ui/page-header";
import { AssetBrowser } from "../browse/asset-browser";

/**
 * /w/:id/b/all — every asset of the workspace — and /w/:id/a/:assetId, the same grid with that
 * asset's preview over it (a child route, so opening and closing the preview keeps the grid mounted).
 */
export function AllAssetsPage() {
  const workspace = useCurrentWorkspace();
  return (
    <>
      <PageHeader title="All assets" description={`Every file in ${workspace.name}`} />
      <AssetBrowser
        workspaceId={workspace.id}
        boardId={null}
        canSaveSmart={canEdit(workspace.user_role)}
        empty={
          <EmptyPanel
            testId="all-assets-empty"
            icon={<IconPhoto size={28} />}
            title="No assets yet"
            description="Use Upload to add images, video, documents or whole folders; they will appear here."
          />
        }
      />
    </>
  );
}
