import type { Asset } from "@hangar/contract";
import type { ReactNode } from "react";
import { CommentDrawer } from "../comments";
import { FieldsPanel } from "../fields";
import { BoardsPanel } from "./panels/boards-panel";
import { DetailsPanel } from "./panels/details-panel";
import { PagesPanel } from "./panels/pages-panel";
import type { ViewerTab } from "./viewer-state";
import type { ViewerPage } from "./viewer-types";

/** The open sidebar tab's panel. */
export function SidebarPanel(props: {
  tab: ViewerTab;
  asset: Asset;
  readOnly: boolean;
  boardId: string | null;
  currentPage: number;
  onPage(page: number): void;
  onSwitchBoard(boardId: string | null): void;
  /** The shared view renders its own fields tab (through the link); its details only inform. */
  renderFields?: (asset: Asset) => ReactNode;
  /** The shared view's "Text in image" (through the link). */
  renderRecognisedText?: (asset: Asset) => ReactNode;
}) {
  const { tab, asset } = props;
  if (tab === "details")
    return (
      <DetailsPanel
        key={asset.id}
        asset={asset}
        readOnly={props.readOnly}
        shared={!!props.renderFields}
        recognisedText={props.renderRecognisedText?.(asset)}
      />
    );
  if (tab === "boards")
    return (
      <BoardsPanel
        asset={asset}
        currentBoardId={props.boardId}
        readOnly={props.readOnly}
        onSwitch={props.onSwitchBoard}
      />
    );
  if (tab === "fields" && props.renderFields) return <>{props.renderFields(asset)}</>;
  if (tab === "fields") return <FieldsPanel workspaceId={asset.workspace_id} asset={asset} readOnly={props.readOnly} />;
  if (tab === "pages")
    return <PagesPanel pages={asset.pages as ViewerPage[]} currentPage={props.currentPage} onPage={props.onPage} />;
  return <CommentDrawer />;
}
