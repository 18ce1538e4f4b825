import { type AssetListAnswer, type AssetListBody, EXACT_COUNT_LIMIT } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import type { Access } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import type { AssetsService } from "./index.ts";
import { listingRepo } from "./listing-repo.ts";
import { listingOrder, listingWhere } from "./listing-sql.ts";

/** POST /workspaces/{id}/assets: the filtered, ordered page (semantics in contract listing.ts). */
export function createListingService(deps: {
  db: Db;
  access: Access;
  assets: Pick<AssetsService, "serialize">;
  /** 404 unless the board is a live board of the workspace (the boards feature answers). */
  assertBoard: (workspaceId: string, boardId: string) => Promise<void>;
}) {
  const { db, access } = deps;

  /**
   * Exact up to EXACT_COUNT_LIMIT (the bounded count stops there, so it never scans a million rows);
   * above it the planner's estimate, flagged. What this page saw tightens either: a last page makes
   * the count exact, a full page proves at least that many.
   */
  async function count(where: ReturnType<typeof listingWhere>) {
    const bounded = await listingRepo.boundedCount(db, where);
    if (bounded <= EXACT_COUNT_LIMIT) return { total: bounded, estimate: false };
    const planned = await listingRepo.estimate(db, where);
    return { total: Math.max(planned, EXACT_COUNT_LIMIT + 1), estimate: true };
  }

  return {
    async list(actor: UserActor, workspaceId: string, body: AssetListBody): Promise<AssetListAnswer> {
      await access.require(actor, "workspace.read", workspaceId);
      if (body.board_id) await deps.assertBoard(workspaceId, body.board_id);
      const where = listingWhere(body, { workspaceId, userId: actor.userId });
      const { page, page_size } = body;
      const offset = (page - 1) * page_size;
      const [ids, counted] = await Promise.all([
        listingRepo.pageIds(db, where, listingOrder(body.order_by), page_size + 1, offset),
        count(where),
      ]);
      const hasMore = ids.length > page_size;
      const pageIds = ids.slice(0, page_size);
      let { total, estimate } = counted;
      if (!hasMore && (pageIds.length > 0 || offset === 0)) {
        total = offset + pageIds.length;
        estimate = false;
      } else if (estimate) total = Math.max(total, offset + ids.length);

      const rows = await listingRepo.rows(db, pageIds);
      const [data, favorites] = await Promise.all([
        deps.assets.serialize(rows),
        listingRepo.favoritesOf(db, actor.userId, pageIds),
      ]);
      // serialize() knows no caller; a favourite is the caller's own.
      for (const a of data) a.favorite = favorites.has(a.id);
      return {
        data,
        pagination: {
          page,
          page_size,
          total_count: total,
          total_pages: Math.ceil(total / page_size),
          has_more: hasMore,
          count_is_estimate: estimate,
        },
      };
    },
  };
}
export type ListingService = ReturnType<typeof createListingService>;
