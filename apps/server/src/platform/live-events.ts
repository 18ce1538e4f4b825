import { LiveEvent } from "@hangar/contract";
import pg from "pg";
import type { Logger } from "pino";

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
 * Live updates for every API process (DESIGN.md §9): one dedicated connection LISTENs on
 * `hangar_events`, where triggers announce comment and asset-status changes whoever made them (this
 * process, another API process, a worker), and hands each to the subscribers of its workspace (the
 * open SSE streams). A lost connection is replaced with backoff; what was announced meanwhile is not
 * replayed, so a stream is told `resync` and its client refetches.
 */
/** The listening connection's name in pg_stat_activity; its pid tells one process's from another's. */
export const EVENTS_LISTENER_NAME = `hangar-events ${process.pid}`;

export function createLiveHub(url: string, log: Logger) {
  const subscribers = new Map<string, Set<Stream>>();
  /** Each session's streams, oldest first (a Set keeps insertion order). */
  const bySession = new Map<string, Set<Stream>>();
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let delay = 500;
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

  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, 10_000);
  };

  async function connect() {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 10_000,
      application_name: EVENTS_LISTENER_NAME,
    });
    client = c;
    c.on("notification", (n) => {
      if (n.channel === EVENTS_CHANNEL && n.payload && client === c) dispatch(n.payload);
    });
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = null;
      if (!stopped && err) log.warn({ err: { message: err.message } }, "live events listener lost; reconnecting");
      c.end().catch(() => {});
      retry();
    };
    c.on("error", lost);
    c.on("end", () => lost());
    try {
      await c.connect();
      await c.query(`LISTEN ${EVENTS_CHANNEL}`);
      if (client !== c) return;
      delay = 500;
      // Whatever happened while we were not listening is unknown: every open stream refetches.
      for (const set of subscribers.values()) for (const s of set) s.onResync();
      readyResolve?.();
    } catch (err) {
      lost(err as Error);
    }
  }

  return {
    start() {
      if (!client && !timer && !stopped) void connect();
      return this;
    },
    /** Resolves once the first LISTEN is in place (tests wait for it). */
    ready: () => ready,
    /**
     * Hears the workspace's events until the returned function is called. A session's streams are
     * capped: opening one more ends its oldest (a reloaded tab's stream the browser has not closed yet).
     */
    subscribe(stream: Stream): () => void {
      this.start(); // the connection opens with the first stream
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
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
export type LiveHub = ReturnType<typeof createLiveHub>;
