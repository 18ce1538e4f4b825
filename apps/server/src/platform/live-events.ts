import { LiveEvent } from "@hangar/contract";
import { LISTENER_NAME, type PgListener } from "./pg-listener.ts";

/** Where the database's triggers (migration 20261124-0001) announce changes, at commit. */
export const EVENTS_CHANNEL = "hangar_events";

/** Streams one session may hold open in one process; a new one beyond closes its oldest (issue 27). */
export const STREAMS_PER_SESSION = 8;

/** One open stream: what it hears, and how it is ended from here. */
export interface Stream {
  workspaceId: string;
  /** Whose stream: a removed member's streams end at once; the cap counts per session. */
  userId: string | null;
  sessionId: string | null;
  onEvent(event: LiveEvent): void;
  onResync(): void;
  /** Ends the stream (its response); the route unsubscribes when the response closes. */
  end(): void;
}

/**
 * Live updates for every API process (docs/architecture.md §9): the process's one database listener
 * (platform/pg-listener.ts) hears `hangar_events`, where triggers announce comment and asset-status
 * changes whoever made them (this process, another API process, a worker), and the hub hands each to
 * the subscribers of its workspace (the open SSE streams). What was announced while the listener's
 * connection was lost is not replayed: when it hears again, every stream is told `resync` and its
 * client refetches.
 */
/** The listening connection's name in pg_stat_activity (the listener's, which the streams share). */
export const EVENTS_LISTENER_NAME = LISTENER_NAME;

export function createLiveHub(listener: PgListener) {
  const subscribers = new Map<string, Set<Stream>>();
  /** Each session's streams, oldest first (a Set keeps insertion order). */
  const bySession = new Map<string, Set<Stream>>();
  let unsubscribe: (() => void) | null = null;
  let stopped = false;
  let readyResolve: (() => void) | null = null;
  const ready = new Promise<void>((r) => {
    readyResolve = r;
  });

  const dispatch = (payload: string) => {
    let raw: unknown;
    try {
      raw = JSON.parse(payload);
    } catch {
      return;
    }
    const { ws, ...rest } = raw as { ws?: string; type?: string; user_id?: string };
    if (!ws) return;
    // A membership ended (migration 20261128-0302): that member's streams of the workspace end now,
    // whichever process removed them, instead of at the next heartbeat's check.
    if (rest.type === "member.removed") {
      for (const s of [...(subscribers.get(ws) ?? [])]) if (s.userId === rest.user_id) s.end();
      return;
    }
    const parsed = LiveEvent.safeParse(rest);
    if (!parsed.success) return;
    for (const s of subscribers.get(ws) ?? []) s.onEvent(parsed.data);
  };

  return {
    start() {
      if (unsubscribe || stopped) return this;
      unsubscribe = listener.subscribe({
        channel: EVENTS_CHANNEL,
        onNotify: dispatch,
        // Heard (again): whatever happened while not listening is unknown, so every open stream refetches.
        onLive() {
          for (const set of subscribers.values()) for (const s of set) s.onResync();
          readyResolve?.();
        },
        onLost() {},
      });
      return this;
    },
    /** Resolves once events are first heard (tests wait for it). */
    ready: () => ready,
    /**
     * Hears the workspace's events until the returned function is called. A session's streams are
     * capped: opening one more ends its oldest (a reloaded tab's stream the browser has not closed yet).
     */
    subscribe(stream: Stream): () => void {
      this.start(); // the events are listened to from the first stream on
      let set = subscribers.get(stream.workspaceId);
      if (!set) {
        set = new Set();
        subscribers.set(stream.workspaceId, set);
      }
      set.add(stream);
      const sid = stream.sessionId;
      if (sid) {
        let mine = bySession.get(sid);
        if (!mine) {
          mine = new Set();
          bySession.set(sid, mine);
        }
        mine.add(stream);
        for (const old of mine) {
          if (mine.size <= STREAMS_PER_SESSION) break;
          mine.delete(old);
          old.end();
        }
      }
      return () => {
        set.delete(stream);
        if (set.size === 0 && subscribers.get(stream.workspaceId) === set) subscribers.delete(stream.workspaceId);
        const mine = sid ? bySession.get(sid) : undefined;
        if (mine) {
          mine.delete(stream);
          if (mine.size === 0) bySession.delete(sid!);
        }
      };
    },
    /** Open streams, for metrics and tests. */
    size: () => [...subscribers.values()].reduce((n, s) => n + s.size, 0),
    /** Stops hearing events (the listener closes its connection with its last subscription). */
    close() {
      stopped = true;
      unsubscribe?.();
      unsubscribe = null;
    },
  };
}
export type LiveHub = ReturnType<typeof createLiveHub>;
