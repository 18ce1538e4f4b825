import { LiveEvent } from "@hangar/contract";
import pg from "pg";
import type { Logger } from "pino";

/** Where the database's triggers (migration 20261124-0001) announce changes, at commit. */
export const EVENTS_CHANNEL = "hangar_events";

type Subscriber = (event: LiveEvent) => void;

/**
 * Live updates for every API process (DESIGN.md §9): one dedicated connection LISTENs on
 * `hangar_events`, where triggers announce comment and asset-status changes whoever made them (this
 * process, another API process, a worker), and hands each to the subscribers of its workspace (the
 * open SSE streams). A lost connection is replaced with backoff; what was announced meanwhile is not
 * replayed, so a stream is told `resync` and its client refetches.
 */
export function createLiveHub(url: string, log: Logger) {
  const subscribers = new Map<string, Set<Subscriber>>();
  const resyncs = new Set<() => void>();
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
    const { ws, ...rest } = raw as { ws?: string };
    const parsed = LiveEvent.safeParse(rest);
    if (!ws || !parsed.success) return;
    for (const fn of subscribers.get(ws) ?? []) fn(parsed.data);
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
      application_name: "hangar-events",
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
      for (const fn of resyncs) fn();
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
    /** Hears the workspace's events until the returned function is called. */
    subscribe(workspaceId: string, fn: Subscriber, onResync: () => void): () => void {
      this.start(); // the connection opens with the first stream
      let set = subscribers.get(workspaceId);
      if (!set) {
        set = new Set();
        subscribers.set(workspaceId, set);
      }
      set.add(fn);
      resyncs.add(onResync);
      return () => {
        set.delete(fn);
        if (set.size === 0) subscribers.delete(workspaceId);
        resyncs.delete(onResync);
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
