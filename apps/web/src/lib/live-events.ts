import { eventsApi, LiveEvent } from "@hangar/contract";
import { answerIs, isText } from "./answer-check";
import { API_BASE, routeUrl } from "./api-client";

/** A change, or `resync`: events may have been missed (a reconnect), refetch what is shown. */
export type LiveSignal = LiveEvent | { type: "resync" };
export type LiveListener = (event: LiveSignal) => void;

interface Stream {
  source: EventSource;
  listeners: Set<LiveListener>;
  connected: boolean;
  everOpen: boolean;
  watchers: Set<() => void>;
}

const EVENT_TYPES = [
  "comment.created",
  "comment.updated",
  "comment.deleted",
  "comment.resolved",
  "asset.status",
  "asset.version",
  // Approvals (issue 30): a decision, a review's state, an asset's status in a review.
  "review.decision",
  "review.state",
  "review.asset",
];

/**
 * One EventSource per workspace (`GET /workspaces/{id}/events`), shared by every listener, opened with
 * the first and closed with the last (docs/architecture.md §4.3). EventSource reconnects by itself; `connected`
 * says whether it is open now, so pollers can fall back to polling while it is not.
 */
const streams = new Map<string, Stream>();

function open(workspaceId: string): Stream {
  const existing = streams.get(workspaceId);
  if (existing) return existing;
  const source = new EventSource(`${API_BASE}${routeUrl(eventsApi.stream, { id: workspaceId })}`, {
    withCredentials: true,
  });
  const s: Stream = { source, listeners: new Set(), connected: false, everOpen: false, watchers: new Set() };
  const setConnected = (value: boolean) => {
    s.connected = value;
    for (const w of s.watchers) w();
  };
  const tell = (signal: LiveSignal) => {
    for (const l of s.listeners) l(signal);
  };
  source.addEventListener("ready", () => {
    // A reconnect: whatever happened while it was down is unknown.
    if (s.everOpen) tell({ type: "resync" });
    s.everOpen = true;
    setConnected(true);
  });
  source.addEventListener("error", () => setConnected(false));
  source.addEventListener("resync", () => tell({ type: "resync" }));
  const deliver = (e: MessageEvent<string>) => {
    try {
      const event: unknown = { ...JSON.parse(e.data), type: e.type };
      // Every event names an asset, but a review's state names only the review.
      if (answerIs(LiveEvent, event, (a) => isText(a.asset_id) || isText(a.review_id))) tell(event as LiveEvent);
    } catch {
      // not ours
    }
  };
  for (const type of EVENT_TYPES) source.addEventListener(type, deliver as EventListener);
  streams.set(workspaceId, s);
  return s;
}

/** Hears a workspace's live events until the returned function is called. */
export function subscribeLive(workspaceId: string, listener: LiveListener): () => void {
  if (typeof EventSource === "undefined") return () => {};
  const s = open(workspaceId);
  s.listeners.add(listener);
  return () => {
    s.listeners.delete(listener);
    if (s.listeners.size === 0) {
      s.source.close();
      streams.delete(workspaceId);
      for (const w of s.watchers) w();
    }
  };
}

/** Whether the workspace's stream is open now. */
export const liveConnected = (workspaceId: string) => streams.get(workspaceId)?.connected ?? false;

/** Calls `cb` when the workspace's stream opens or drops. */
export function watchLive(workspaceId: string, cb: () => void): () => void {
  const s = streams.get(workspaceId);
  s?.watchers.add(cb);
  return () => s?.watchers.delete(cb);
}
