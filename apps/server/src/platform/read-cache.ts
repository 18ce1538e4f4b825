import type { PgListener } from "./pg-listener.ts";

/**
 * A coherent in-process cache for the reads every request repeats: the session, the caller's role in
 * a workspace, an asset, a share link (by token and by id) and what it shows. It only answers while this process hears every change: database triggers
 * (migration 0009) send `NOTIFY hangar_cache` with a key ("w:<workspace>", "u:<user>", "*") for each
 * change that could alter a cached answer, from any process, job or hand-written SQL. While the
 * listener is down the cache answers nothing (every read goes to the database), and when it comes
 * back everything cached before is dropped, since changes may have been missed meanwhile.
 *
 * Coherence without locks: a reader takes `snapshot()` before its query and stores the answer with
 * it; a key bumped after that snapshot makes the entry invalid, so a change that lands while the
 * query runs is never hidden. Changes made by this process's own requests bump their keys at once
 * (before the response leaves), so a client reads its own writes; other processes hear of them within
 * the notification's latency (milliseconds). Entries also expire after `ttlMs` as a last resort.
 */
export interface ReadCache {
  /** True while every change is heard; false: get answers nothing and set stores nothing. */
  readonly live: boolean;
  snapshot(): number;
  get<T>(key: string): T | undefined;
  /** `ttlMs`: this entry's own expiry, when it should outlive (or not) the cache's default. */
  set<T>(key: string, value: T, deps: readonly string[], snapshot: number, ttlMs?: number): void;
  /** Marks keys changed: "w:<workspace>", "u:<user>", or "*" (everything). */
  bump(...keys: string[]): void;
  /** Listener state changes (the listener calls these). */
  setLive(live: boolean): void;
}

interface Entry {
  value: unknown;
  deps: readonly string[];
  snap: number;
  expires: number;
}

export function createReadCache(opts: { ttlMs?: number; maxEntries?: number } = {}): ReadCache {
  const ttlMs = opts.ttlMs ?? 60_000;
  const maxEntries = opts.maxEntries ?? 20_000; // asset answers are ~2.5 KB: ≤ ~50 MB
  const entries = new Map<string, Entry>();
  const changed = new Map<string, number>(); // key → counter value at its last change
  let counter = 0;
  let floor = 0; // entries read before this are void (a flush)
  let live = false;

  const flush = () => {
    floor = ++counter;
    entries.clear();
    changed.clear();
  };

  function valid(e: Entry): boolean {
    if (e.snap < floor || e.expires <= Date.now()) return false;
    for (const d of e.deps) if ((changed.get(d) ?? 0) > e.snap) return false;
    return true;
  }

  return {
    get live() {
      return live;
    },
    snapshot: () => counter,
    get<T>(key: string): T | undefined {
      if (!live) return undefined;
      const e = entries.get(key);
      if (e && valid(e)) return e.value as T;
      if (e) entries.delete(key);
      return undefined;
    },
    set(key, value, deps, snap, ttl = ttlMs) {
      if (!live) return;
      const e: Entry = { value, deps, snap, expires: Date.now() + ttl };
      if (!valid(e)) return; // changed while it was being read
      entries.delete(key); // re-insert at the end: eviction drops the oldest first
      entries.set(key, e);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    bump(...keys) {
      for (const k of keys) {
        if (k === "*") {
          flush();
          return;
        }
        changed.set(k, ++counter);
      }
      // The change log only needs keys newer than every live entry; past a bound, start over.
      if (changed.size > maxEntries * 2) flush();
    },
    setLive(next) {
      if (next && !live) flush(); // changes may have been missed while deaf
      live = next;
      if (!next) entries.clear();
    },
  };
}

/** Where the triggers (migration 0009) send the change keys. */
export const CACHE_CHANNEL = "hangar_cache";

/**
 * Feeds the read cache from the process's listener (platform/pg-listener.ts): each notification bumps
 * its key; the cache answers only while the listener provably hears (after LISTEN and a heartbeat that
 * came back) and the triggers that notify it exist (a database not yet migrated sends nothing); when
 * the listener loses its connection the cache goes deaf (it answers nothing and forgets everything)
 * and starts empty once it hears again.
 */
export function feedReadCache(listener: PgListener, cache: ReadCache) {
  const waiting = new Set<() => void>();
  const unsubscribe = listener.subscribe({
    channel: CACHE_CHANNEL,
    onNotify(payload) {
      // "ping:…": a heartbeat of a process from before the listener had a channel of its own.
      if (!payload.startsWith("ping:")) cache.bump(payload);
    },
    onLive() {
      cache.setLive(true);
      for (const w of waiting) w();
    },
    onLost: () => cache.setLive(false),
    verify: async (rowCount) =>
      (await rowCount("SELECT 1 FROM pg_proc WHERE proname = 'hangar_cache_by_workspace'")) > 0,
  });
  return {
    /** Resolves once the cache is live (true), or after `ms` (false): start-up and tests. */
    ready(ms = 5_000): Promise<boolean> {
      if (cache.live) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timeout);
          waiting.delete(done);
          resolve(cache.live);
        };
        const timeout = setTimeout(done, ms);
        waiting.add(done);
      });
    },
    /** Stops feeding: the cache answers nothing from now on. */
    close() {
      unsubscribe();
      cache.setLive(false);
      for (const w of waiting) w();
    },
  };
}
export type ReadCacheFeed = ReturnType<typeof feedReadCache>;

/** The cache's keys, and the change keys (what the triggers send) each answer depends on. */
export const cacheKeys = {
  workspace: (workspaceId: string) => `w:${workspaceId}`,
  user: (userId: string) => `u:${userId}`,
  session: (sessionId: string) => `s:${sessionId}`,
  role: (userId: string, workspaceId: string) => `r:${userId}:${workspaceId}`,
  asset: (userId: string, workspaceId: string, assetId: string) => `a:${userId}:${workspaceId}:${assetId}`,
  /** A share link's state by id (what a signed URL names), and its row by token (the public API). */
  link: (linkId: string) => `l:${linkId}`,
  linkToken: (token: string) => `lt:${token}`,
  /** Whether a link shows an asset ("a") or a board ("b"): the subtree and board checks' answer. */
  linkSees: (linkId: string, kind: "a" | "b", id: string) => `ls:${linkId}:${kind}:${id}`,
};

/**
 * How a change to a table reaches the cache: the column its NOTIFY trigger (migration 0009) keys the
 * change by. `workspace_id`: the row's own workspace ("w:<workspace>"); `asset_id`: the workspace of
 * the row's asset; `field_id`: the workspace of the row's custom field. A read model declares one per table it reads (modules/assets/view.ts).
 */
export type CacheInvalidation = keyof typeof CACHE_TRIGGERS;

/** The trigger function behind each invalidation path, and the one every table has for TRUNCATE. */
export const CACHE_TRIGGERS = {
  workspace_id: "hangar_cache_by_workspace",
  asset_id: "hangar_cache_by_asset",
  /** A custom field's option: the workspace of its field (migration 20261124-0003). */
  field_id: "hangar_cache_by_field",
} as const;
export const CACHE_TRUNCATE_TRIGGER = "hangar_cache_all";
