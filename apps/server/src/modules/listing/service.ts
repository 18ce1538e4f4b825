import type { AssetListAnswer, AssetListBody } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace, issuerOf } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import type { Signer } from "../../storage/signer.ts";
import { ASSET, assetAbilities, serializeView } from "../assets/index.ts";
import { type ListingTuning, listingRepo } from "./repo.ts";

/** POST /workspaces/{id}/assets: the filtered, ordered page (semantics in contract listing.ts). */
export function createListingService(deps: {
  db: Db;
  access: Access;
  signer: Signer;
  /** 404 unless the board is a live board of the workspace (the boards feature answers). */
  assertBoard: (workspaceId: string, boardId: string) => Promise<void>;
  /** For tests: force the probe on or off, lower the cost of an exact count. */
  tuning?: ListingTuning;
}) {
  const { db, access, signer } = deps;

  return {
    async list(actor: UserActor, workspaceId: string, body: AssetListBody): Promise<AssetListAnswer> {
      const grant = await access.require(actor, ASSET.list, inWorkspace(workspaceId));
      const viewer = { abilities: assetAbilities(grant), issuer: issuerOf(actor) };
      if (body.board_id) await deps.assertBoard(workspaceId, body.board_id);
      const { page, page_size } = body;
      const offset = (page - 1) * page_size;
      // The repo chooses the plan; it answers page_size + 1 rows, so has_more needs no count.
      const found = await listingRepo.find(db, body, { workspaceId, userId: actor.userId }, deps.tuning);
      const hasMore = found.rows.length > page_size;
      const pageRows = found.rows.slice(0, page_size);
      // What this page saw tightens the count: a last page makes it exact, a full one a lower bound.
      let { total, estimate } = found;
      if (!hasMore && (pageRows.length > 0 || offset === 0)) {
        total = offset + pageRows.length;
        estimate = false;
      } else if (estimate) total = Math.max(total, offset + found.rows.length);

      const data = await Promise.all(pageRows.map((r) => serializeView(r, signer, viewer)));
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
