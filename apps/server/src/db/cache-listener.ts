import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Logger } from "pino";
import type { ReadCache } from "../platform/read-cache.ts";

export const CACHE_CHANNEL = "hangar_cache";
/** The listener's application_name in pg_stat_activity, with the pid of the process it serves. */
export const LISTENER_NAME = `hangar-cache ${process.pid}`;

export interface CacheListenerOptions {
  /**
   * Sends a notification on CACHE_CHANNEL through another connection (the pool): the heartbeat that
   * proves notifications reach the listener.
   */
  sendPing: (payload: string) => Promise<void>;
  /** How often the heartbeat goes out; one unanswered for twice this long makes the cache deaf. */
  pingEveryMs?: number;
}

/** The heartbeat through the pool: the path every trigger's notification takes. */
export const pingThrough =
  (pool: pg.Pool) =>
  async (payload: string): Promise<void> => {
    await pool.query("SELECT pg_notify($1, $2)", [CACHE_CHANNEL, payload]);
  };

/**
 * One dedicated connection that LISTENs for the triggers' change keys (migration 0009) and feeds them
 * to the read cache. The cache is live only while notifications demonstrably arrive: after LISTEN, a
 * heartbeat sent through another connection must come back before the cache answers anything, and
 * again every few seconds. A lost connection, or one that hears nothing (a transaction-pooling proxy
 * in between, for one), makes the cache deaf (it stops answering) and the connection is replaced with
 * backoff; going live again flushes the cache.
 */
export function startCacheListener(url: string, cache: ReadCache, log: Logger, opts: CacheListenerOptions) {
  const pingEveryMs = opts.pingEveryMs ?? 5_000;
  const me = randomUUID().slice(0, 8);
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let delay = 500;
  let sent = 0; // last heartbeat sent on this connection
  let sentAt = 0;
  let heard = 0; // last heartbeat heard back

  const retry = () => {
    cache.setLive(false);
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, 10_000);
  };

  const ping = () => {
    sent += 1;
    sentAt = Date.now();
    opts.sendPing(`ping:${me}:${sent}`).catch(() => {}); // a database that is down fails the heartbeat anyway
  };

  async function connect() {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 10_000,
      application_name: LISTENER_NAME,
    });
    client = c;
    sent = 0;
    heard = 0;
    c.on("notification", (n) => {
      if (n.channel !== CACHE_CHANNEL || !n.payload || client !== c) return;
      if (!n.payload.startsWith("ping:")) {
        cache.bump(n.payload);
        return;
      }
      const [, from, seq] = n.payload.split(":");
      if (from !== me) return; // another process's heartbeat
      heard = Math.max(heard, Number(seq));
      if (heard === sent && !cache.live && !stopped) {
        delay = 500;
        cache.setLive(true);
      }
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
      ping(); // live once it comes back
    } catch (err) {
      lost(err as Error);
    }
  }

  // The heartbeat: a new one each period; one unanswered for two periods means nothing arrives.
  const beat = setInterval(() => {
    const c = client;
    if (!c || stopped || sent === 0) return;
    if (heard < sent && Date.now() - sentAt > 2 * pingEveryMs) {
      log.warn(
        "cache listener hears no notifications (behind a transaction-pooling proxy, set READ_CACHE=false); reads go to the database",
      );
      client = null;
      c.end().catch(() => {});
      retry();
      return;
    }
    if (heard === sent) ping();
  }, pingEveryMs);
  beat.unref();

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
      clearInterval(beat);
      if (timer) clearTimeout(timer);
      cache.setLive(false);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
export type CacheListener = ReturnType<typeof startCacheListener>;
