import type { Asset } from "@hangar/contract";
import { ActionIcon, Alert, Box, Center, Loader, Modal, ScrollArea, Tooltip } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import {
  IconChevronLeft,
  IconChevronRight,
  IconFiles,
  IconFolders,
  IconForms,
  IconInfoCircle,
  IconMessageCircle,
} from "@tabler/icons-react";
import { type ReactNode, useCallback, useEffect, useReducer, useRef, useState } from "react";
import { isNotFound, useAsset } from "../../entities/asset";
import { useAfterFirstPaint } from "../../lib/after-paint";
import { errorMessage } from "../../lib/api-client";
import { WhenOpened } from "../../lib/deferred";
import { usePageTitle } from "../../lib/page-title";
import { ReviewProvider, ReviewThreads } from "../comments";
import { useDownload } from "../downloads";
import { RequestReviewButton } from "../reviews";
// The share dialog loads the first time it opens: not part of the viewer's own chunk.
import { ShareDialog } from "../shares";
import { ExternalDecision } from "./review/external-decision";
import { MemberDecision } from "./review/member-decision";
import { SidebarPanel } from "./sidebar-panel";
import { useViewerKeys } from "./use-viewer-keys";
import { useViewerVersions } from "./versions/viewer-versions";
import { VIEWER_SIDEBAR } from "./viewer-constants";
import { ViewerHeader } from "./viewer-header";
import { Preview, pageCountOf } from "./viewer-preview";
import { INITIAL_VIEWER_STATE, type ViewerTab, viewerReducer, visibleTabs } from "./viewer-state";
import type { SharedViewerOptions } from "./viewer-types";

const TAB_META: Record<ViewerTab, { label: string; icon: ReactNode }> = {
  comments: { label: "Comments", icon: <IconMessageCircle size={20} /> },
  pages: { label: "Pages", icon: <IconFiles size={20} /> },
  details: { label: "Details", icon: <IconInfoCircle size={20} /> },
  fields: { label: "Fields", icon: <IconForms size={20} /> },
  boards: { label: "Boards", icon: <IconFolders size={20} /> },
};

export interface AssetViewerProps {
  workspaceId: string;
  assetId: string;
  /** The board the viewer is opened in (null: All Assets & Files). */
  boardId: string | null;
  boardName?: string | null;
  /** Opened from the grid (a dialog over it) or by its address (a page). */
  mode: "modal" | "page";
  onClose(): void;
  /** Opens another asset of the current listing in place. */
  onStep(assetId: string): void;
  /** Switches the current view to a board (null: all assets) with this asset open in it. */
  onSwitchBoard(boardId: string | null): void;
  previous?: Asset | null;
  next?: Asset | null;
  /** The sidebar tab to start on (switching boards keeps the boards tab open). */
  initialTab?: ViewerTab | null;
  /** Set on the public page: the viewer in shared view. */
  shared?: SharedViewerOptions | null;
  /** The comment to land on (`?comment=` of a mention's e-mail): the comments tab opens at it. */
  commentId?: string | null;
}

/** The full-screen asset viewer of spec 02 §2: header, preview, and the sidebar with its icon rail. */
export function AssetViewer(props: AssetViewerProps) {
  const { workspaceId, assetId, boardId, boardName, mode, onClose, onStep, previous, next } = props;
  const shared = props.shared ?? null;
  const memberQuery = useAsset(workspaceId, shared ? null : assetId);
  const query = shared ? shared.asset : memberQuery;
  // Versions (issue 29): the preview, the comments and the panels show the version in the address.
  const versions = useViewerVersions(workspaceId, query.data, shared);
  const asset = versions.shown;
  const comparing = !!versions.compare;
  const [sharing, setSharing] = useState(false);
  // On a phone the panels are a sheet over the preview: it starts closed unless a tab is asked for.
  const [state, dispatch] = useReducer(viewerReducer, INITIAL_VIEWER_STATE, (s) => {
    if (props.initialTab) return { ...s, activeTab: props.initialTab };
    if (props.commentId) return { ...s, activeTab: "comments" as const };
    const narrow = window.matchMedia?.(`(max-width: ${VIEWER_SIDEBAR.breakpoint}px)`).matches;
    if (narrow) return { ...s, activeTab: null };
    // Shared view: comments first when the link shows them, otherwise details (spec 02 §2).
    if (props.shared && !props.shared.settings.show_comments) return { ...s, activeTab: "details" as const };
    return s;
  });
  const phone = useMediaQuery(`(max-width: ${VIEWER_SIDEBAR.breakpoint}px)`) ?? false;
  // Set while an annotation is being drawn or written: Escape then belongs to it, not to the viewer.
  const escapeBusy = useRef(false);
  const compareOpen = useRef<(() => void) | null>(null);
  compareOpen.current = comparing ? versions.closeCompare : null;
  const goToPage = useCallback(
    (page: number) => dispatch({ type: "goToPage", page, pageCount: asset ? pageCountOf(asset) : 1 }),
    [asset],
  );
  const setVisibleAnnotation = useCallback((id: string | null) => dispatch({ type: "showAnnotation", id }), []);
  const download = useDownload(workspaceId);

  const close = () => {
    dispatch({ type: "close" });
    onClose();
  };
  const contentRef = useViewerKeys({ previous, next, onStep, onClose: close, escapeBusy, compareOpen });
  // Another asset: its first page (the tab stays, as reviewers step through a board).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a new asset only
  useEffect(() => {
    dispatch({ type: "goToPage", page: 1, pageCount: 1 });
  }, [assetId]);

  // The neighbours' previews, so stepping shows them at once.
  useEffect(() => {
    for (const a of [previous, next]) {
      const url = a?.pages[0]?.url ?? a?.thumbnail_url;
      if (url && a?.file_type !== "VIDEO") new Image().src = url;
    }
  }, [previous, next]);

  const tabs = asset
    ? visibleTabs(
        asset,
        shared
          ? {
              shared: true,
              showComments: shared.settings.show_comments,
              showFields: shared.settings.show_custom_fields,
            }
          : {},
      )
    : [];
  const activeTab = state.activeTab && tabs.includes(state.activeTab) ? state.activeTab : null;
  const title = query.data?.name ?? (query.isError ? "Asset" : "Loading…");
  // The public page names itself ("… · shared on Hangar"); a member's tab says which asset is open.
  usePageTitle(shared ? null : query.data?.name);

  // The picture first: the panel (comments, with its composer and members) joins a frame later.
  const panelsReady = useAfterFirstPaint();
  const panel =
    asset && activeTab && panelsReady ? (
      <SidebarPanel
        tab={activeTab}
        asset={asset}
        readOnly={!asset.abilities.edit}
        boardId={boardId}
        renderFields={shared?.renderFields}
        renderRecognisedText={shared?.renderRecognisedText}
        currentPage={state.currentPage}
        onPage={(page) => dispatch({ type: "goToPage", page, pageCount: pageCountOf(asset) })}
        onSwitchBoard={props.onSwitchBoard}
      />
    ) : null;

  // Approvals (issue 30): a reviewer's decision bar under the preview (the link's page brings its own).
  const decisionBar =
    !asset || comparing ? null : shared ? (
      shared.reviewer &&
      query.data && <ExternalDecision reviewer={shared.reviewer} asset={query.data} compact={phone} />
    ) : query.data ? (
      <MemberDecision
        workspaceId={workspaceId}
        asset={query.data}
        shownVersionId={versions.review.version?.id ?? null}
        compact={phone}
        onStep={onStep}
      />
    ) : null;

  const rail = (
    <Box
      component="nav"
      aria-label="Viewer panels"
      style={{
        display: "flex",
        flexDirection: phone ? "row" : "column",
        justifyContent: phone ? "space-around" : "flex-start",
        gap: 4,
        padding: 8,
        width: phone ? "100%" : VIEWER_SIDEBAR.rail,
        borderLeft: phone ? undefined : "1px solid var(--mantine-color-dark-4)",
        borderTop: phone ? "1px solid var(--mantine-color-dark-4)" : undefined,
        flexShrink: 0,
      }}
    >
      {tabs.map((tab) => (
        <Tooltip key={tab} label={TAB_META[tab].label} position={phone ? "top" : "left"}>
          <ActionIcon
            size={40}
            variant={activeTab === tab ? "filled" : "subtle"}
            color={activeTab === tab ? "blue" : "gray.3"}
            aria-label={TAB_META[tab].label}
            aria-pressed={activeTab === tab}
            data-testid={`viewer-tab-${tab}`}
            onClick={() => dispatch({ type: "toggleTab", tab })}
          >
            {TAB_META[tab].icon}
          </ActionIcon>
        </Tooltip>
      ))}
    </Box>
  );

  return (
    <Modal.Root opened onClose={close} fullScreen closeOnEscape={false} trapFocus returnFocus>
      <Modal.Content
        ref={contentRef}
        aria-label={title}
        data-testid="asset-viewer"
        data-mode={mode}
        style={{ background: "var(--mantine-color-dark-8)", color: "var(--mantine-color-gray-0)" }}
        {...versions.upload.dropTarget}
      >
        {versions.upload.elements}
        <MaybeReview
          workspaceId={workspaceId}
          asset={asset}
          boardId={boardId}
          currentPage={state.currentPage}
          goToPage={goToPage}
          visibleId={state.visibleAnnotationId}
          setVisibleId={setVisibleAnnotation}
          escapeBusy={escapeBusy}
          shared={shared ? { token: shared.token, identify: shared.identify, via: shared.via } : null}
          targetCommentId={shared ? null : (props.commentId ?? null)}
          {...versions.review}
        >
          {comparing ? (
            versions.compare
          ) : (
            <Box h="100dvh" style={{ display: "flex", flexDirection: "column" }}>
              <ViewerHeader
                title={title}
                asset={asset}
                shared={shared}
                boardId={boardId}
                boardName={boardName}
                versionMenu={versions.menu}
                reviewAction={
                  !shared && asset?.abilities.edit ? (
                    <RequestReviewButton workspaceId={workspaceId} asset={asset} />
                  ) : null
                }
                downloading={download.isDownloading}
                onDownload={(a) => {
                  // The version shown (issue 29): another than the current one is asked for by its id.
                  const shownId = versions.review.version?.id;
                  const other = shownId && shownId !== query.data?.current_version?.id ? shownId : undefined;
                  if (shared) shared.download(a);
                  else void download.downloadAsset({ ...a, versionId: other });
                }}
                onShare={() => setSharing(true)}
                onClose={close}
              />

              <Box style={{ flex: 1, minHeight: 0, display: "flex", flexDirection: phone ? "column" : "row" }}>
                <Box style={{ flex: 1, minWidth: 0, minHeight: 0, display: "flex", flexDirection: "column" }}>
                  {/* The picture's area: annotation popovers stay inside it (on a phone, above the sheet). */}
                  <Box pos="relative" style={{ flex: 1, minWidth: 0, minHeight: 0 }} data-annotation-bounds>
                    {query.isError && !asset ? (
                      <Center h="100%" p="md">
                        <Alert
                          color={isNotFound(query.error) ? "gray" : "red"}
                          variant="light"
                          title="Asset unavailable"
                        >
                          {isNotFound(query.error)
                            ? "This asset does not exist, was deleted, or belongs to another workspace."
                            : errorMessage(query.error, "Failed to fetch asset")}
                        </Alert>
                      </Center>
                    ) : !asset ? (
                      <Center h="100%">
                        <Loader color="gray.0" />
                      </Center>
                    ) : (
                      <Preview
                        asset={asset}
                        viewKey={`${asset.id}:${versions.review.version?.id ?? ""}`}
                        currentPage={state.currentPage}
                        onPage={(page) => dispatch({ type: "goToPage", page, pageCount: pageCountOf(asset) })}
                        faces={!shared}
                        watermarked={shared?.settings.watermarked ? { token: shared.token } : null}
                      />
                    )}
                    {/* Markers and drawings stay on the picture with the comments closed (a phone's sheet). */}
                    {asset && panelsReady && activeTab !== "comments" && tabs.includes("comments") && <ReviewThreads />}
                    {previous && <StepButton side="left" label="Previous asset" onClick={() => onStep(previous.id)} />}
                    {next && <StepButton side="right" label="Next asset" onClick={() => onStep(next.id)} />}
                  </Box>
                  {decisionBar}
                </Box>
                {/* A phone: the open tab's panel is a sheet between the picture (kept above it) and the rail. */}
                {phone && panel && activeTab && (
                  <ScrollArea
                    component="section"
                    aria-label={TAB_META[activeTab].label}
                    h="55%"
                    px="md"
                    pt="sm"
                    style={{
                      flexShrink: 0,
                      borderTop: "1px solid var(--mantine-color-dark-4)",
                      borderRadius: "var(--mantine-radius-lg) var(--mantine-radius-lg) 0 0",
                      background: "var(--mantine-color-body)",
                      color: "var(--mantine-color-text)",
                    }}
                    data-testid="viewer-sheet"
                  >
                    {panel}
                  </ScrollArea>
                )}
                {!phone && panel && (
                  <ScrollArea
                    w={VIEWER_SIDEBAR.width}
                    p="md"
                    style={{
                      flexShrink: 0,
                      borderLeft: "1px solid var(--mantine-color-dark-4)",
                      background: "var(--mantine-color-body)",
                      color: "var(--mantine-color-text)",
                    }}
                    data-testid="viewer-sidebar"
                  >
                    {panel}
                  </ScrollArea>
                )}
                {rail}
              </Box>
            </Box>
          )}
        </MaybeReview>
        {asset && boardId && (
          <WhenOpened open={sharing}>
            <ShareDialog
              opened={sharing}
              onClose={() => setSharing(false)}
              target={{ workspaceId, type: "asset", objectId: asset.id, boardId }}
              itemName={asset.name}
            />
          </WhenOpened>
        )}
      </Modal.Content>
    </Modal.Root>
  );
}

/** The review tools' shared state, once the asset is known. */
function MaybeReview(
  props: Omit<Parameters<typeof ReviewProvider>[0], "asset"> & { asset: Asset | undefined; children: ReactNode },
) {
  const { asset, children, ...rest } = props;
  if (!asset) return <>{children}</>;
  return (
    <ReviewProvider asset={asset} {...rest}>
      {children}
    </ReviewProvider>
  );
}

function StepButton({ side, label, onClick }: { side: "left" | "right"; label: string; onClick(): void }) {
  return (
    <Tooltip label={`${label} (${side === "left" ? "←" : "→"})`}>
      <ActionIcon
        variant="white"
        radius="xl"
        size="lg"
        aria-label={label}
        onClick={onClick}
        style={{ position: "absolute", [side]: 12, top: "50%", transform: "translateY(-50%)", opacity: 0.85 }}
      >
        {side === "left" ? <IconChevronLeft size={18} /> : <IconChevronRight size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}
