import type { Asset, Comment, DrawingShape } from "@hangar/contract";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { DEFAULT_PEN, type Pen } from "./drawing/tools";
import type { DrawnShape } from "./review-math";

/** What the player lends the review tools: its time, whether it is paused, and seeking. */
export interface VideoControl {
  time(): number;
  paused(): boolean;
  seek(seconds: number): void;
  pause(): void;
}

/** A visitor's optional name and e-mail (spec 02 §3 Anonymous user info). */
export interface AnonymousInfo {
  name: string | null;
  email: string | null;
}

/**
 * The review as a share-link visitor does it: through the token, named by what they chose to give.
 * `via: "review"`: an outside reviewer's link (issue 30): its own calls (`/review/{token}/comments`),
 * the current version only, named by the review (`identify` answers their name without asking).
 */
export interface SharedReview {
  token: string;
  via?: "share" | "review";
  /** Asks for the name and e-mail unless stored (spec 02 §4); null when the visitor cancels. */
  identify(): Promise<AnonymousInfo | null>;
}

/**
 * What is drawn on the preview, waiting for its text: a POINT or an AREA, or a DRAWING's shapes (more
 * are added until it is posted). On a video, the frame's time it was drawn on.
 */
export type Draft = (DrawnShape | { annotation_type: "DRAWING"; shapes: DrawingShape[] }) & {
  page: number | null;
  timestamp?: number | null;
};

/** A range on the video's timeline being made (I and O), for the next comment. */
export interface VideoRange {
  in: number;
  out: number | null;
}

export interface Review {
  workspaceId: string;
  /** Set in a shared view: calls go through the link's token (no edit, delete, resolve or mentions). */
  shared: SharedReview | null;
  asset: Asset;
  /** The board the viewer is in (null: All Assets & Files): a new top-level comment's context. */
  boardId: string | null;
  canComment: boolean;
  /** Spec 02 §4: annotation creation can be switched off; off resets the drawing state. */
  annotating: boolean;
  setAnnotating(on: boolean): void;
  draft: Draft | null;
  setDraft(draft: Draft | null): void;
  /** The tool, colour and width drawing now (issue 31). */
  pen: Pen;
  setPen(change: Partial<Pen>): void;
  /** Adds a drawn shape to the draft (starting a DRAWING one when there is none). */
  addShape(shape: DrawingShape, at: { page: number | null; timestamp?: number | null }): void;
  /** The last shape of the draft off (Ctrl/⌘Z), and back on (Ctrl/⌘Shift+Z). */
  undo(): void;
  redo(): void;
  canUndo: boolean;
  canRedo: boolean;
  /**
   * The comment the pointer is over in the list: its shapes are highlighted on the picture. A store of
   * its own (not this context's value): a hover re-renders the picture's layer, not every comment.
   */
  hovered: HoverStore;
  /** The in/out range being made on a video (null: none). */
  range: VideoRange | null;
  setRange(range: VideoRange | null): void;
  visibleId: string | null;
  /** Opens one annotation's popover (null closes it). */
  show(id: string | null): void;
  /** Clicking a marker toggles its visibility. */
  toggle(id: string): void;
  /** Top-level comments (for markers), kept by the drawer's query. */
  threads: Comment[];
  setThreads(threads: Comment[]): void;
  currentPage: number;
  goToPage(page: number): void;
  video: { current: VideoControl | null };
  /** A time to seek to once the player is there (a comment focused before the video mounted). */
  pendingSeek: { current: number | null };
  /**
   * Jumps to where a comment is: its page, its video time, its annotation (a reply: its thread's),
   * and marks it as the comment in view.
   */
  focus(comment: Comment, thread?: Comment): void;
  /** The comment in view (highlighted in the list): focused, or the one a mention's link named. */
  highlightedId: string | null;
  /** The comment the address names (`?comment=` of a mention's e-mail): the drawer lands on it. */
  targetId: string | null;
  /** Set while something of the review owns Escape (a drawing, a text box): the viewer stays open. */
  escapeBusy: { current: boolean };
  /**
   * The version shown (issue 29): comments and annotations are that version's; a new comment is made
   * on it. null: the asset's current one, as the server takes it by default.
   */
  version: { id: string; number: number } | null;
  /** The drawer lists every version's comments (each says its version); markers stay the shown version's. */
  allVersions: boolean;
  setAllVersions(on: boolean): void;
  /** Shows another version (a comment of it was picked); absent where versions cannot be switched. */
  showVersion?: (number: number) => void;
}

export interface HoverStore {
  get(): string | null;
  set(id: string | null): void;
  subscribe(listener: () => void): () => void;
}

function createHoverStore(): HoverStore {
  let current: string | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set: (id) => {
      if (id === current) return;
      current = id;
      for (const l of listeners) l();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The comment hovered in the list (see Review.hovered). */
export function useHoveredId(store: HoverStore | undefined): string | null {
  return useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.get ?? noValue);
}
const noSubscribe = () => () => {};
const noValue = () => null;

const ReviewContext = createContext<Review | null>(null);

export function useReview(): Review | null {
  return useContext(ReviewContext);
}

export function ReviewProvider(props: {
  workspaceId: string;
  asset: Asset;
  boardId: string | null;
  currentPage: number;
  goToPage(page: number): void;
  visibleId: string | null;
  setVisibleId(id: string | null): void;
  escapeBusy: { current: boolean };
  shared?: SharedReview | null;
  targetCommentId?: string | null;
  version?: { id: string; number: number } | null;
  showVersion?: (number: number) => void;
  /** Annotations to look at only (compare): no drawing, no writing. */
  readOnly?: boolean;
  children: ReactNode;
}) {
  const { workspaceId, asset, boardId, currentPage, goToPage, visibleId, setVisibleId, escapeBusy } = props;
  const shared = props.shared ?? null;
  const versionId = props.version?.id ?? null;
  const versionNumber = props.version?.number ?? null;
  const version = useMemo(
    () => (versionId && versionNumber !== null ? { id: versionId, number: versionNumber } : null),
    [versionId, versionNumber],
  );
  const { showVersion, readOnly = false } = props;
  const [allVersions, setAllVersions] = useState(false);
  const [annotating, setAnnotatingState] = useState(true);
  const [draft, setDraftState] = useState<Draft | null>(null);
  const [redoable, setRedoable] = useState<DrawingShape[]>([]);
  const [pen, setPenState] = useState<Pen>(DEFAULT_PEN);
  const [hovered] = useState(createHoverStore);
  const [range, setRange] = useState<VideoRange | null>(null);
  const setDraft = useCallback((next: Draft | null) => {
    setDraftState(next);
    setRedoable([]);
  }, []);
  const setPen = useCallback((change: Partial<Pen>) => setPenState((p) => ({ ...p, ...change })), []);
  const addShape = useCallback((shape: DrawingShape, at: { page: number | null; timestamp?: number | null }) => {
    setDraftState((d) =>
      d?.annotation_type === "DRAWING" && d.page === at.page
        ? { ...d, shapes: [...d.shapes, shape] }
        : { annotation_type: "DRAWING", shapes: [shape], ...at },
    );
    setRedoable([]);
  }, []);
  const undo = useCallback(() => {
    if (draft?.annotation_type !== "DRAWING") return;
    const last = draft.shapes[draft.shapes.length - 1];
    if (!last) return;
    setRedoable((r) => [...r, last]);
    setDraftState(draft.shapes.length > 1 ? { ...draft, shapes: draft.shapes.slice(0, -1) } : null);
  }, [draft]);
  const redo = useCallback(() => {
    const next = redoable[redoable.length - 1];
    if (!next) return;
    setRedoable((r) => r.slice(0, -1));
    setDraftState((d) =>
      d?.annotation_type === "DRAWING"
        ? { ...d, shapes: [...d.shapes, next] }
        : { annotation_type: "DRAWING", shapes: [next], page: d?.page ?? null, timestamp: d?.timestamp },
    );
  }, [redoable]);
  const canUndo = draft?.annotation_type === "DRAWING" && draft.shapes.length > 0;
  const canRedo = redoable.length > 0;
  const [threads, setThreads] = useState<Comment[]>([]);
  const video = useRef<VideoControl | null>(null);
  const pendingSeek = useRef<number | null>(null);
  const [highlightedId, setHighlightedId] = useState<string | null>(null);
  const targetId = props.targetCommentId ?? null;
  const setAnnotating = useCallback(
    (on: boolean) => {
      setAnnotatingState(on);
      if (!on) setDraft(null);
    },
    [setDraft],
  );
  const focus = useCallback(
    (comment: Comment, thread?: Comment) => {
      setHighlightedId(comment.id);
      // A reply has no place of its own: it is where its thread is.
      const placed = (x: Comment) => x.page !== null || x.timestamp !== null || x.annotation_type !== "NONE";
      const root = thread ?? threads.find((t) => t.id === comment.thread_id);
      const c = placed(comment) ? comment : (root ?? comment);
      // A comment of another version (the drawer lists all of them): that version first.
      if (c.version && version && c.version.id !== version.id) showVersion?.(c.version.number);
      if (c.page && c.page !== currentPage) goToPage(c.page);
      if (c.timestamp !== null) {
        if (video.current) {
          video.current.pause();
          video.current.seek(c.timestamp);
        } else pendingSeek.current = c.timestamp;
      }
      if (c.annotation_type !== "NONE") setVisibleId(c.id);
    },
    [currentPage, goToPage, setVisibleId, threads, version, showVersion],
  );
  const value = useMemo<Review>(
    () => ({
      workspaceId,
      shared,
      asset,
      boardId,
      canComment: asset.abilities.comment && !readOnly,
      annotating,
      setAnnotating,
      draft,
      setDraft,
      pen,
      setPen,
      addShape,
      undo,
      redo,
      canUndo,
      canRedo,
      hovered,
      range,
      setRange,
      visibleId,
      show: setVisibleId,
      toggle: (id) => setVisibleId(visibleId === id ? null : id),
      threads,
      setThreads,
      currentPage,
      goToPage,
      video,
      pendingSeek,
      focus,
      highlightedId,
      targetId,
      escapeBusy,
      version,
      allVersions,
      setAllVersions,
      showVersion,
    }),
    [
      version,
      allVersions,
      showVersion,
      readOnly,
      workspaceId,
      shared,
      asset,
      boardId,
      annotating,
      setAnnotating,
      draft,
      setDraft,
      pen,
      setPen,
      addShape,
      undo,
      redo,
      canUndo,
      canRedo,
      hovered,
      range,
      visibleId,
      setVisibleId,
      threads,
      currentPage,
      goToPage,
      focus,
      highlightedId,
      targetId,
      escapeBusy,
    ],
  );
  return <ReviewContext.Provider value={value}>{props.children}</ReviewContext.Provider>;
}
