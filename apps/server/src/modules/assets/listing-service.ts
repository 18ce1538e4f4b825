import { type AssetListAnswer, type AssetListBody, EXACT_COUNT_LIMIT } from "@hangar/contract";
import type { RawBuilder, SqlBool } from "kysely";
import type { Db } from "../../db/db.ts";
import type { Access } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import type { Signer } from "../../storage/signer.ts";
import { DAY_SKIP_MIN_OFFSET, dayPageIdsSql, listingRepo, pageIdsSql } from "./listing-repo.ts";
import { listingFilters, listingOrder, listingWhere } from "./listing-sql.ts";
import { toAsset } from "./serialize.ts";

export interface ListingPlan {
  /** The page's ids statement (limit + 1 ids, in order). */
  ids: RawBuilder<{ id: string }>;
  where: RawBuilder<SqlBool>;
  /** No condition beyond the workspace and listable scope. */
  unfiltered: boolean;
}

/** The statements for one request: pure, so the bench and the tests build the very same ones. */
export function listingPlan(body: AssetListBody, scope: { workspaceId: string; userId: string }): ListingPlan {
  const unfiltered = listingFilters(body, scope).length === 0;
  const where = listingWhere(body, scope);
  const limit = body.page_size + 1;
  const offset = (body.page - 1) * body.page_size;
  const byUpload = body.order_by === "-date_uploaded" || body.order_by === "date_uploaded";
  const ids =
    unfiltered && byUpload && offset >= DAY_SKIP_MIN_OFFSET
      ? dayPageIdsSql(scope.workspaceId, body.order_by.startsWith("-"), limit, offset)
      : pageIdsSql(where, listingOrder(body.order_by), limit, offset);
  return { ids, where, unfiltered };
}

/** POST /workspaces/{id}/assets: the filtered, ordered page (semantics in contract listing.ts). */
export function createListingService(deps: {
  db: Db;
  access: Access;
  signer: Signer;
  /** 404 unless the board is a live board of the workspace (the boards feature answers). */
  assertBoard: (workspaceId: string, boardId: string) => Promise<void>;
}) {
  const { db, access, signer } = deps;

  /**
   * The counting strategy (contract listing.ts): unfiltered, the exact sum of asset_list_days; filtered,
   * the planner's estimate first (a plan, no scan) and, only when it expects at most EXACT_COUNT_LIMIT
   * matches, an exact count that stops at EXACT_COUNT_LIMIT + 1.
   */
  async function count(plan: ListingPlan, workspaceId: string) {
    if (plan.unfiltered) return { total: await listingRepo.listableCount(db, workspaceId), estimate: false };
    const planned = await listingRepo.estimate(db, plan.where);
    if (planned > EXACT_COUNT_LIMIT) return { total: planned, estimate: true };
    const bounded = await listingRepo.boundedCount(db, plan.where);
    if (bounded <= EXACT_COUNT_LIMIT) return { total: bounded, estimate: false };
    return { total: EXACT_COUNT_LIMIT + 1, estimate: true };
  }

  return {
    async list(actor: UserActor, workspaceId: string, body: AssetListBody): Promise<AssetListAnswer> {
      await access.require(actor, "workspace.read", workspaceId);
      if (body.board_id) await deps.assertBoard(workspaceId, body.board_id);
      const plan = listingPlan(body, { workspaceId, userId: actor.userId });
      const { page, page_size } = body;
      const offset = (page - 1) * page_size;
      const [rows, counted] = await Promise.all([
        listingRepo.page(db, plan.ids, actor.userId),
        count(plan, workspaceId),
      ]);
      const hasMore = rows.length > page_size;
      const pageRows = rows.slice(0, page_size);
      // What this page saw tightens the count: a last page makes it exact, a full one a lower bound.
      let { total, estimate } = counted;
      if (!hasMore && (pageRows.length > 0 || offset === 0)) {
        total = offset + pageRows.length;
        estimate = false;
      } else if (estimate) total = Math.max(total, offset + rows.length);

      const data = await Promise.all(
        pageRows.map(async (r) => {
          const a = await toAsset(r, { tags: r.tag_names, aiTags: r.ai, boards: r.board_list }, signer);
          a.favorite = r.is_favorite; // the caller's own
          return a;
        }),
      );
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
