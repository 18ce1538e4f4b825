import type { AssetListBody } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type AssetViewRow, assetViewRepo } from "../assets/index.ts";
import type { ListingCursor } from "./cursor.ts";
import { type ListingScope, listingFilters, listingWhere, matchArms, roughEstimate } from "./filters-repo.ts";
import {
  COUNT_MAX_PLAN_COST,
  type Estimate,
  filteredPageIds,
  type ListingTuning,
  listingRepo,
  PROBE_LIMIT,
  unfilteredPageIds,
} from "./repo.ts";
import { cursorRanges, sortKeyText } from "./seek-repo.ts";

/**
 * A page after a cursor (issue 36): the listing's first page with the keyset condition added to the
 * statements that find it (ListingScope.seek), so it is planned as page 1 is (the order index read
 * from the cursor on, a guarded walk, or a probe of few matches) and costs what page 1 costs at any
 * depth. The count and the planner's estimate that picks the plan are the whole listing's. For
 * date_taken after a dated asset, the dated range is read first and the undated one only for what it
 * lacked (cursorRanges).
 */
export const cursorRepo = {
  async findAfter(
    db: Db,
    body: AssetListBody,
    scope: ListingScope,
    cursor: ListingCursor,
    tuning: ListingTuning = {},
  ): Promise<{ rows: AssetViewRow[]; total: number; estimate: boolean }> {
    const sortKey = sortKeyText(body.order_by);
    const unfiltered = listingFilters(body, scope).length === 0;
    const planned: Estimate | null = unfiltered ? null : await listingRepo.estimate(db, listingWhere(body, scope));
    const counting = planned
      ? listingRepo.countFiltered(
          db,
          matchArms(body, scope, planned.rows <= PROBE_LIMIT),
          planned,
          tuning.countMaxPlanCost ?? COUNT_MAX_PLAN_COST,
          roughEstimate(body),
        )
      : listingRepo.listableCount(db, scope.workspaceId).then((total) => ({ total, estimate: false }));
    const rows: AssetViewRow[] = [];
    for (const seek of cursorRanges(cursor)) {
      const want = body.page_size + 1 - rows.length;
      if (want <= 0) break;
      // page 1 of what follows the cursor; `want` rows (page_size + 1 of them: has_more without a count).
      const page = { ...body, page: 1, page_size: want - 1, cursor: undefined };
      const at = { ...scope, seek };
      const ids = planned ? filteredPageIds(page, at, planned, tuning.probe ?? "auto") : unfilteredPageIds(page, at);
      rows.push(...(await assetViewRepo.rows(db, ids, scope.userId, scope.comments, sortKey)));
    }
    return { rows, ...(await counting) };
  },
};
