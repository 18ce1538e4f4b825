import pg from "pg";
import type { Logger } from "pino";
import type { ReadCache } from "../platform/read-cache.ts";

export const CACHE_CHANNEL = "hangar_cache";
export const LISTENER_NAME = "hangar-cache";

/**
 * One dedicated connection that LISTENs for the triggers' change keys (migration 0009) and feeds them
 * to the read cache. The cache is live only while this connection is: on any error it goes deaf (the
 * cache stops answering) and reconnects with backoff; a fresh LISTEN flushes the cache.
 */
export function startCacheListener(url: string, cache: ReadCache, log: Logger) {
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let delay = 500;

  const retry = () => {
    cache.setLive(false);
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
      application_name: LISTENER_NAME,
    });
    client = c;
    c.on("notification", (n) => {
      if (n.channel === CACHE_CHANNEL && n.payload) cache.bump(n.payload);
    });
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = null;
      if (!stopped && err) log.warn({ err: { message: err.message } }, "cache listener lost; reads go to the database");
      c.end().catch(() => {});
      retry();
    };
    c.on("error", lost);
    c.on("end", () => lost());
    try {
      await c.connect();
      await c.query(`LISTEN ${CACHE_CHANNEL}`);
      // Without the triggers (a database not yet migrated) nobody would send: stay deaf, look again.
      const triggers = await c.query("SELECT 1 FROM pg_proc WHERE proname = 'hangar_cache_by_workspace'");
      if (client !== c || stopped) return;
      if (triggers.rowCount === 0) {
        client = null;
        await c.end().catch(() => {});
        retry();
        return;
      }
      delay = 500;
      cache.setLive(true);
    } catch (err) {
      lost(err as Error);
    }
  }

  void connect();
  return {
    /** Resolves once the cache is live (or after `ms`): start-up and tests. */
    async ready(ms = 5_000) {
      const until = Date.now() + ms;
      while (!cache.live && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      return cache.live;
    },
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      cache.setLive(false);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
export type CacheListener = ReturnType<typeof startCacheListener>;
