import { IconTrash } from "@tabler/icons-react";
import { EmptyPanel } from "../../../ui/empty-panel";
import { PageHeader } from "../../../ui/page-header";

/** /w/:id/recently-deleted — deleted assets and boards, restorable for 30 days. */
export function RecentlyDeletedPage() {
  return (
    <>
      <PageHeader title="Recently deleted" description="Deleted assets and boards stay here for 30 days." />
      <EmptyPanel
        testId="recently-deleted-empty"
        icon={<IconTrash size={28} />}
        title="Nothing deleted recently"
        description="When you delete assets or boards, you can restore them from here for 30 days."
      />
    </>
  );
}
