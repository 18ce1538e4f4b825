import type { AssetListBody } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import { type AssetViewRow, assetViewRepo, type PageIds } from "../assets/index.ts";
import { type ListingScope, listingWhere } from "./filters-repo.ts";
import { pageWindow } from "./seek-repo.ts";

/**
 * `order_by: distance` with `similar_to` (issue 32): the assets that look like the target, nearest first
 * (ties by id), with every other filter. The matches are what hangar_similar finds through the band
 * index (every one within the distance, already computed whole to be checked), so the page sorts them
 * and the count is exact: no order index, no waypoint, no estimate.
 */
function matches(body: AssetListBody & { similar_to: NonNullable<AssetListBody["similar_to"]> }, scope: ListingScope) {
  const { asset_id, max_distance } = body.similar_to;
  const others = listingWhere({ ...body, similar_to: undefined }, scope);
  return sql`SELECT a.id, s.distance FROM hangar_similar(${scope.workspaceId}, ${asset_id}, ${max_distance}) s
    JOIN assets a ON a.id = s.asset_id WHERE ${others}`;
}

export const nearestRepo = {
  async find(
    db: Db,
    body: AssetListBody & { similar_to: NonNullable<AssetListBody["similar_to"]> },
    scope: ListingScope,
  ): Promise<{ rows: AssetViewRow[]; total: number; estimate: boolean }> {
    const { limit, offset } = pageWindow(body);
    const page: PageIds = {
      with: sql`WITH n AS MATERIALIZED (${matches(body, scope)})`,
      ids: sql`ARRAY(SELECT n.id FROM n ORDER BY n.distance, n.id LIMIT ${limit} OFFSET ${offset})`,
    };
    const [rows, counted] = await Promise.all([
      assetViewRepo.rows(db, page, scope.userId, scope.comments),
      sql<{ n: number }>`SELECT count(*)::int AS n FROM (${matches(body, scope)}) m`.execute(db),
    ]);
    return { rows, total: counted.rows[0]?.n ?? 0, estimate: false };
  },
};
