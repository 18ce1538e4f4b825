import { IconLayoutBoard } from "@tabler/icons-react";
import { useEffect } from "react";
import { useParams } from "react-router-dom";
import { EmptyPanel } from "../../../ui/empty-panel";
import { PageHeader } from "../../../ui/page-header";
import { selectionStore } from "../../workspaces/selection-store";

/** /w/:id/b/:boardId — one board's assets and sub-boards. Content arrives with the boards issue. */
export function BoardPage() {
  const { boardId = "" } = useParams();

  // The URL holds the current board (DESIGN §3); the store mirrors it for the panels that need it.
  useEffect(() => {
    selectionStore.setCurrentBoard(boardId);
    return () => selectionStore.setCurrentBoard(null);
  }, [boardId]);

  return (
    <>
      <PageHeader title="Board" />
      <EmptyPanel
        testId="board-empty"
        icon={<IconLayoutBoard size={28} />}
        title="This board is empty"
        description="Boards and their assets arrive soon. Sub-boards and files you add here will appear on this page."
      />
    </>
  );
}
