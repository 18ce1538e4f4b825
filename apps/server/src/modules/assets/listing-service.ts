import { type AssetListAnswer, type AssetListBody, EXACT_COUNT_LIMIT } from "@hangar/contract";
import type { RawBuilder, SqlBool } from "kysely";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace, issuerOf } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import type { Signer } from "../../storage/signer.ts";
import {
  DAY_SKIP_MIN_OFFSET,
  dayPageIdsSql,
  type Estimate,
  listingRepo,
  type PageIds,
  PROBE_LIMIT,
  pageIdsSql,
  plainPageIds,
  probePageIds,
} from "./listing-repo.ts";
import { type ListingScope, listingFilters, listingOrder, listingWhere, roughEstimate } from "./listing-sql.ts";
import { ASSET, assetAbilities } from "./policy.ts";
import { toAsset } from "./serialize.ts";

/** At or below this planner estimate, a filtered page probes its matches first (listing-repo.ts). */
export const PROBE_MAX_ESTIMATE = 50_000;
/**
 * Exact counting only when the planner prices finding every match at most this (its cost units; a
 * full scan of a million assets is ~100,000 at PostgreSQL's default settings). Dearer: the estimate.
 */
export const COUNT_MAX_PLAN_COST = 50_000;

const window = (body: AssetListBody) => ({
  limit: body.page_size + 1, // one more than asked: has_more without a count
  offset: (body.page - 1) * body.page_size,
});

/** The unfiltered listing's page: by upload date and deep, from the day counts; else its order index. */
export function unfilteredPageIds(body: AssetListBody, scope: ListingScope): PageIds {
  const { limit, offset } = window(body);
  const byUpload = body.order_by === "-date_uploaded" || body.order_by === "date_uploaded";
  if (byUpload && offset >= DAY_SKIP_MIN_OFFSET)
    return plainPageIds(dayPageIdsSql(scope.workspaceId, body.order_by.startsWith("-"), limit, offset));
  return plainPageIds(pageIdsSql(listingWhere(body, scope), listingOrder(body.order_by), limit, offset));
}

/**
 * A filtered listing's page, given the planner's estimate: its plan as it chooses (for an ORDER BY
 * with LIMIT, usually walking the order index), except when the matches are few (expected at most
 * PROBE_LIMIT, or a rough estimate at most PROBE_MAX_ESTIMATE) and reachable through indexes (no scan
 * of every asset); then they are probed first (probePageIds). When it would scan every asset anyway,
 * walking in order is never worse.
 */
export function filteredPageIds(
  body: AssetListBody,
  scope: ListingScope,
  planned: Estimate,
  probe: "auto" | "always" | "never" = "auto",
): PageIds {
  const { limit, offset } = window(body);
  const where = listingWhere(body, scope);
  const few = planned.rows <= PROBE_LIMIT || (roughEstimate(body) && planned.rows <= PROBE_MAX_ESTIMATE);
  const auto = few && !planned.seqScan;
  if (probe === "always" || (probe === "auto" && auto)) return probePageIds(where, body.order_by, limit, offset);
  return plainPageIds(pageIdsSql(where, listingOrder(body.order_by), limit, offset));
}

/** POST /workspaces/{id}/assets: the filtered, ordered page (semantics in contract listing.ts). */
export function createListingService(deps: {
  db: Db;
  access: Access;
  signer: Signer;
  /** 404 unless the board is a live board of the workspace (the boards feature answers). */
  assertBoard: (workspaceId: string, boardId: string) => Promise<void>;
  /** For tests: force the probe on or off, lower the cost of an exact count. */
  tuning?: { probe?: "always" | "never"; countMaxPlanCost?: number };
}) {
  const { db, access, signer } = deps;
  const probe = deps.tuning?.probe ?? "auto";
  const countMaxPlanCost = deps.tuning?.countMaxPlanCost ?? COUNT_MAX_PLAN_COST;

  /**
   * The counting strategy for a filtered listing (contract listing.ts), from the planner's estimate:
   * above EXACT_COUNT_LIMIT expected matches, or when finding them all would be dear, the estimate;
   * otherwise an exact count that stops at EXACT_COUNT_LIMIT + 1.
   */
  async function countFiltered(where: RawBuilder<SqlBool>, planned: Estimate) {
    if (planned.rows > EXACT_COUNT_LIMIT || planned.cost > countMaxPlanCost)
      return { total: planned.rows, estimate: true };
    const bounded = await listingRepo.boundedCount(db, where);
    if (bounded <= EXACT_COUNT_LIMIT) return { total: bounded, estimate: false };
    return { total: EXACT_COUNT_LIMIT + 1, estimate: true };
  }

  async function pageAndCount(body: AssetListBody, scope: ListingScope) {
    // Unfiltered: the whole workspace, counted exactly from the day counts, alongside the page.
    if (listingFilters(body, scope).length === 0)
      return Promise.all([
        listingRepo.page(db, unfilteredPageIds(body, scope), scope.userId),
        listingRepo.listableCount(db, scope.workspaceId).then((total) => ({ total, estimate: false })),
      ]);
    // Filtered: the planner's estimate (a plan, no scan) picks how to find the page and how to count.
    const where = listingWhere(body, scope);
    const planned = await listingRepo.estimate(db, where);
    return Promise.all([
      listingRepo.page(db, filteredPageIds(body, scope, planned, probe), scope.userId),
      countFiltered(where, planned),
    ]);
  }

  return {
    async list(actor: UserActor, workspaceId: string, body: AssetListBody): Promise<AssetListAnswer> {
      const grant = await access.require(actor, ASSET.list, inWorkspace(workspaceId));
      const viewer = { abilities: assetAbilities(grant), issuer: issuerOf(actor) };
      if (body.board_id) await deps.assertBoard(workspaceId, body.board_id);
      const { page, page_size } = body;
      const { offset } = window(body);
      const [rows, counted] = await pageAndCount(body, { workspaceId, userId: actor.userId });
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
          const a = await toAsset(r, { tags: r.tag_names, aiTags: r.ai, boards: r.board_list }, signer, viewer);
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
