import { createHash } from "node:crypto";
import type { AssetListBody } from "@hangar/contract";
import { cacheKeys, type ReadCache } from "../../platform/read-cache.ts";

/**
 * Deep pages of a scroll (issue 19). The client asks pages by number, one after another as the grid
 * scrolls, and OFFSET makes page 5,000 walk the 49,990 matches before it. So every page served leaves
 * a waypoint: "in this listing, the match at position N is asset X". The next page starts right after
 * X in the listing's order (a keyset seek, seek-repo.ts `seekPageIds`) and skips only what lies between.
 *
 * Exact by construction: waypoints live in the coherent read cache (platform/read-cache.ts) under the
 * workspace's change key, so any change to the workspace's assets, tags, boards, favourites, fields,
 * values or comments (what a filter can read, each table's trigger notifies it) drops them all. Like
 * every cached read, a change made by another process is seen within the notification's latency; a
 * change this process makes, at once. Per caller (favourites differ), per filter and order; a page asked
 * out of the blue (a jump to page 5,000) walks its offset as before. Every order is served; by date
 * taken, the undated assets sort last and are a range of their own (seek-repo.ts).
 */
export interface Waypoint {
  /** Matches before the asset (its position in the listing). */
  offset: number;
  /** The last asset before that position. */
  id: string;
  /** Its sort key is null (date_taken orders: it sorts with the undated, last). */
  nullKey?: boolean;
}

/** Deep enough to be worth a seek (the day skip and the probe start at the same depth). */
export const WAYPOINT_MIN_OFFSET = 1_000;
/** Waypoints kept per listing: a scroll only ever needs the last few. */
const KEPT = 16;
/**
 * How long a waypoint outlives its last use when nothing changes: a user may look at a page for
 * minutes before scrolling on (the cache's default minute would make that next page a cold walk).
 * A change drops it at once whatever this says.
 */
export const WAYPOINT_TTL_MS = 30 * 60_000;

export function createWaypoints(cache: ReadCache) {
  const keyOf = (workspaceId: string, userId: string, body: AssetListBody) => {
    const { page: _page, page_size: _size, ...listing } = body;
    const digest = createHash("sha256").update(JSON.stringify(listing)).digest("base64url").slice(0, 22);
    return `lw:${workspaceId}:${userId}:${digest}`;
  };
  return {
    snapshot: () => cache.snapshot(),
    /** The nearest waypoint at or before `offset` (null: none, or not deep enough to matter). */
    nearest(workspaceId: string, userId: string, body: AssetListBody, offset: number): Waypoint | null {
      if (offset < WAYPOINT_MIN_OFFSET) return null;
      const kept = cache.get<Waypoint[]>(keyOf(workspaceId, userId, body)) ?? [];
      let best: Waypoint | null = null;
      for (const w of kept) if (w.offset <= offset && (!best || w.offset > best.offset)) best = w;
      return best;
    },
    /**
     * What a page showed: its last asset sits at `offset - 1`. `snapshot` is the cache's, taken before
     * the page's statements ran: a change since then voids the waypoint at once.
     */
    remember(workspaceId: string, userId: string, body: AssetListBody, waypoint: Waypoint, snapshot: number) {
      const key = keyOf(workspaceId, userId, body);
      const kept = (cache.get<Waypoint[]>(key) ?? []).filter((w) => w.offset !== waypoint.offset);
      const next = [...kept, waypoint].slice(-KEPT);
      cache.set(key, next, [cacheKeys.workspace(workspaceId)], snapshot, WAYPOINT_TTL_MS);
    },
  };
}
export type Waypoints = ReturnType<typeof createWaypoints>;
