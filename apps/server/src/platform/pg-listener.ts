import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Logger } from "pino";

/**
 * The listening connection's application_name in pg_stat_activity. The pid tells one process's
 * connection from another's (tests end this process's only).
 */
export const LISTENER_NAME = `hangar-listener ${process.pid}`;
/** Where the heartbeat goes: sent through another connection (the pool), heard on the listening one. */
export const HEARTBEAT_CHANNEL = "hangar_listener";

/** One consumer of one channel: the read cache (`hangar_cache`), the live streams (`hangar_events`). */
export interface ListenerSubscription {
  channel: string;
  /** A notification on the channel, in commit order. */
  onNotify(payload: string): void;
  /**
   * Notifications on the channel are heard from now on, provably (a heartbeat came back after LISTEN).
   * Called again after every reconnection: what was sent while nothing was heard is lost, so a
   * consumer takes it as "resync" (the read cache starts empty, live streams refetch).
   */
  onLive(): void;
  /** Nothing is heard from now until the next `onLive` (the connection was lost, went deaf or closed). */
  onLost(): void;
  /**
   * Asked on the listening connection before `onLive` (the read cache: are the triggers that notify it
   * there?); false keeps this consumer waiting, and it is asked again at each heartbeat.
   */
  verify?(rowCount: (sql: string) => Promise<number>): Promise<boolean>;
}

export interface PgListenerOptions {
  url: string;
  log: Logger;
  /** Sends a notification on HEARTBEAT_CHANNEL through another connection: see `pingThrough`. */
  sendPing: (payload: string) => Promise<void>;
  /** How often the heartbeat goes out; one unanswered for twice this long means nothing arrives. */
  pingEveryMs?: number;
}

/** The heartbeat through the pool: the path every trigger's notification takes. */
export const pingThrough =
  (pool: pg.Pool) =>
  async (payload: string): Promise<void> => {
    await pool.query("SELECT pg_notify($1, $2)", [HEARTBEAT_CHANNEL, payload]);
  };

/** A subscription and whether it has been told it is live on the current connection. */
interface Sub {
  of: ListenerSubscription;
  live: boolean;
  checking: boolean;
}

/** One connection and what was done on it. */
interface Conn {
  c: pg.Client;
  open: boolean;
  /** Set once it is being closed. */
  ended: Promise<void> | null;
  /** The last query sent on it: pg takes one at a time, so each waits for the one before. */
  last: Promise<unknown>;
  listens: Map<string, Promise<void>>;
  sent: number; // the last heartbeat sent while this connection listened
  sentAt: number;
  heard: number; // the last heartbeat heard back on it
  hearing: boolean;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/**
 * The process's one database-notification listener (docs/architecture.md §9): one dedicated connection that
 * LISTENs on every channel its consumers subscribe to, opened with the first subscription. It is
 * trusted only while notifications demonstrably arrive: after LISTEN a heartbeat sent through another
 * connection must come back before any consumer is told it is live, and again every few seconds. A
 * lost connection, or one that hears nothing (a transaction-pooling proxy in between, for one), tells
 * every consumer `onLost`, and the connection is replaced with backoff; the new one tells them
 * `onLive` again.
 */
export function createPgListener(opts: PgListenerOptions) {
  const { url, log } = opts;
  const pingEveryMs = opts.pingEveryMs ?? 5_000;
  const me = randomUUID().slice(0, 8);
  const subs = new Set<Sub>();
  let current: Conn | null = null;
  let seq = 0; // heartbeats sent by this listener, over all its connections
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let beat: NodeJS.Timeout | null = null;
  let delay = 500;

  const lose = (s: Sub) => {
    if (!s.live) return;
    s.live = false;
    s.of.onLost();
  };

  /** The connection is gone or useless: every consumer is deaf until a new one hears. */
  const drop = (conn: Conn, retry: boolean) => {
    if (current !== conn) return;
    current = null;
    conn.ended ??= conn.c.end().catch(() => {});
    for (const s of subs) lose(s);
    if (!retry || stopped || timer || subs.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, 10_000);
  };

  /** A query on the connection, after those sent before it. */
  const run = (conn: Conn, text: string): Promise<pg.QueryResult> => {
    const result = conn.last.then(
      () => conn.c.query(text),
      () => conn.c.query(text),
    );
    conn.last = result.catch(() => {});
    return result;
  };

  const ensure = (conn: Conn, channel: string): Promise<void> => {
    let listening = conn.listens.get(channel);
    if (!listening) {
      listening = run(conn, `LISTEN ${channel}`).then(
        () => {},
        (err: Error) => {
          if (current === conn && !stopped) log.warn({ err: { message: err.message } }, "LISTEN failed; reconnecting");
          drop(conn, true);
          throw err;
        },
      );
      conn.listens.set(channel, listening);
    }
    return listening;
  };

  const ping = (conn: Conn) => {
    conn.sent = ++seq;
    conn.sentAt = Date.now();
    opts.sendPing(`ping:${me}:${conn.sent}`).catch(() => {}); // a database that is down fails the heartbeat anyway
  };

  /** Tells `s` it is live on `conn`, once its channel is listened to and its check passes. */
  async function activate(conn: Conn, s: Sub) {
    if (s.checking) return;
    s.checking = true;
    try {
      await ensure(conn, s.of.channel);
      if (!conn.hearing || s.live || current !== conn || !subs.has(s)) return;
      const { verify } = s.of;
      const ok = !verify || (await verify(async (text) => (await run(conn, text)).rowCount ?? 0));
      if (ok && conn.hearing && !s.live && current === conn && subs.has(s)) {
        s.live = true;
        s.of.onLive();
      }
    } catch {
      // A failed query: the connection's own error (or the next heartbeat) replaces it.
    } finally {
      s.checking = false;
    }
  }

  const onNotification = (conn: Conn, n: pg.Notification) => {
    if (current !== conn || n.payload === undefined) return;
    if (n.channel === HEARTBEAT_CHANNEL) {
      const [, from, at] = n.payload.split(":");
      if (from !== me) return; // another process's heartbeat
      conn.heard = Math.max(conn.heard, Number(at));
      if (conn.heard >= conn.sent && !conn.hearing && !stopped) {
        conn.hearing = true;
        delay = 500;
        for (const s of subs) void activate(conn, s);
      }
      return;
    }
    for (const s of subs) if (s.of.channel === n.channel) s.of.onNotify(n.payload);
  };

  async function connect() {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 10_000,
      application_name: LISTENER_NAME,
    });
    const conn: Conn = {
      c,
      open: false,
      ended: null,
      last: Promise.resolve(),
      listens: new Map(),
      sent: 0,
      sentAt: 0,
      heard: 0,
      hearing: false,
    };
    current = conn;
    c.on("notification", (n) => onNotification(conn, n));
    const lost = (err?: Error) => {
      if (current === conn && !stopped && err)
        log.warn({ err: { message: err.message } }, "database listener lost; reconnecting");
      drop(conn, true);
    };
    c.on("error", lost);
    c.on("end", () => lost());
    try {
      await c.connect();
      conn.open = true;
      const channels = new Set([HEARTBEAT_CHANNEL, ...[...subs].map((s) => s.of.channel)]);
      await Promise.all([...channels].map((ch) => ensure(conn, ch)));
      if (current === conn && !stopped) ping(conn); // consumers go live once it comes back
    } catch (err) {
      lost(err as Error);
    }
  }

  // The heartbeat: a new one each period; one unanswered for two periods means nothing arrives.
  const heartbeat = () => {
    const conn = current;
    if (!conn || stopped || conn.sent === 0) return;
    if (conn.heard < conn.sent) {
      if (Date.now() - conn.sentAt <= 2 * pingEveryMs) return;
      log.warn(
        "database listener hears no notifications (behind a transaction-pooling proxy? set READ_CACHE=false); reconnecting",
      );
      drop(conn, true);
      return;
    }
    ping(conn);
    for (const s of subs) if (!s.live) void activate(conn, s); // a check that failed is asked again
  };

  return {
    /**
     * Hears `sub.channel` until the returned function is called. The connection opens with the first
     * subscription and closes with the last.
     */
    subscribe(subscription: ListenerSubscription): () => void {
      const { channel } = subscription;
      if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
      if (stopped) return () => {};
      const s: Sub = { of: subscription, live: false, checking: false };
      subs.add(s);
      if (!beat) {
        beat = setInterval(heartbeat, pingEveryMs);
        beat.unref();
      }
      if (current?.open) void activate(current, s);
      else if (!current && !timer) void connect();
      return () => {
        if (!subs.delete(s)) return;
        lose(s);
        const conn = current;
        if (subs.size === 0) {
          if (timer) clearTimeout(timer);
          timer = null;
          if (conn) drop(conn, false);
        } else if (conn?.open && ![...subs].some((o) => o.of.channel === channel)) {
          conn.listens.delete(channel);
          run(conn, `UNLISTEN ${channel}`).catch(() => {});
        }
      };
    },
    /** Whether notifications are heard now (the last heartbeat came back on an open connection). */
    get live() {
      return current?.hearing ?? false;
    },
    async close() {
      stopped = true;
      if (beat) clearInterval(beat);
      if (timer) clearTimeout(timer);
      const conn = current;
      if (conn) drop(conn, false);
      await conn?.ended;
    },
  };
}
export type PgListener = ReturnType<typeof createPgListener>;
