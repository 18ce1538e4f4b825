import type { Asset } from "@hangar/contract";

/** The sidebar's tabs in rail order (spec 02 §2). */
export const VIEWER_TABS = ["comments", "pages", "details", "fields", "boards"] as const;
export type ViewerTab = (typeof VIEWER_TABS)[number];

/** Viewer state of spec 02 §2: currentPage 1, activeTab comments, no visible annotation. */
export interface ViewerState {
  currentPage: number;
  /** null: the sidebar is closed (clicking the active tab again toggles it off). */
  activeTab: ViewerTab | null;
  visibleAnnotationId: string | null;
}

export const INITIAL_VIEWER_STATE: ViewerState = { currentPage: 1, activeTab: "comments", visibleAnnotationId: null };

export type ViewerAction =
  | { type: "toggleTab"; tab: ViewerTab }
  | { type: "openTab"; tab: ViewerTab }
  | { type: "goToPage"; page: number; pageCount: number }
  | { type: "nextPage"; pageCount: number }
  | { type: "previousPage" }
  | { type: "toggleAnnotation"; id: string }
  | { type: "showAnnotation"; id: string | null }
  /** Closing the viewer (spec 02 §4): page 1, tab comments, no visible annotation. */
  | { type: "close" };

const clampPage = (page: number, pageCount: number) =>
  Math.min(Math.max(1, Math.trunc(page) || 1), Math.max(1, pageCount));

export function viewerReducer(state: ViewerState, action: ViewerAction): ViewerState {
  switch (action.type) {
    case "toggleTab":
      return { ...state, activeTab: state.activeTab === action.tab ? null : action.tab };
    case "openTab":
      return state.activeTab === action.tab ? state : { ...state, activeTab: action.tab };
    case "goToPage":
      return { ...state, currentPage: clampPage(action.page, action.pageCount) };
    case "nextPage":
      return { ...state, currentPage: clampPage(state.currentPage + 1, action.pageCount) };
    case "previousPage":
      return { ...state, currentPage: Math.max(1, state.currentPage - 1) };
    case "toggleAnnotation":
      return { ...state, visibleAnnotationId: state.visibleAnnotationId === action.id ? null : action.id };
    case "showAnnotation":
      return { ...state, visibleAnnotationId: action.id };
    case "close":
      return INITIAL_VIEWER_STATE;
  }
}

/** Previous / next are disabled at the ends (spec 02 §4 Document viewer). */
export const pageBounds = (currentPage: number, pageCount: number) => ({
  canPrevious: currentPage > 1,
  canNext: currentPage < pageCount,
});

const DOCUMENT_EXTENSIONS = new Set(["pdf", "doc", "docx", "ppt", "pptx", "xls", "xlsx", "txt", "rtf"]);

/** Which preview the viewer shows (spec 02 §2 Preview area). */
export function previewKind(
  asset: Pick<Asset, "file_type" | "file_extension" | "pages">,
): "video" | "document" | "image" {
  if (asset.file_type === "VIDEO") return "video";
  const ext = asset.file_extension.toLowerCase();
  const isDocument = asset.file_type === "DOCUMENT" || DOCUMENT_EXTENSIONS.has(ext);
  return isDocument && asset.pages.length > 0 ? "document" : "image";
}

export interface TabVisibility {
  /** The public share page: no boards tab. */
  shared?: boolean;
  /** Share settings may hide comments and fields. */
  showComments?: boolean;
  showFields?: boolean;
}

/** The tabs this asset shows: pages only for documents with pages; boards never in shared view. */
export function visibleTabs(
  asset: Pick<Asset, "file_type" | "file_extension" | "pages">,
  opts: TabVisibility = {},
): ViewerTab[] {
  return VIEWER_TABS.filter((tab) => {
    if (tab === "pages") return previewKind(asset) === "document";
    if (tab === "boards") return !opts.shared;
    if (tab === "comments") return opts.showComments !== false;
    if (tab === "fields") return opts.showFields !== false;
    return true;
  });
}

/** In shared view the first tab is comments when comments are shown, otherwise details. */
export function initialTab(opts: TabVisibility = {}): ViewerTab {
  return opts.shared && opts.showComments === false ? "details" : "comments";
}
