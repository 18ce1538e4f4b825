import {
  type AssetListAnswer,
  type AssetListBody,
  AssetListBody as AssetListBodySchema,
  SIMILAR_MESSAGES,
} from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace, issuerOf } from "../../platform/access.ts";
import type { UserActor, VisitorActor } from "../../platform/actor.ts";
import { invalid } from "../../platform/errors.ts";
import type { Signer } from "../../storage/signer.ts";
import { assetAbilities, linkCommentScope, linkViewOf, serializeView, type Viewer, viewerOf } from "../assets/index.ts";
import { CURSOR_MESSAGES, decodeCursor, encodeCursor } from "./cursor.ts";
import { cursorRepo } from "./cursor-repo.ts";
import { LISTING } from "./policy.ts";
import { type ListingTuning, listingRepo } from "./repo.ts";
import { SMART_ZIP_LIMIT, savedFilter, smartListing } from "./smart.ts";
import { smartRepo } from "./smart-repo.ts";
import type { Waypoints } from "./waypoints.ts";

const NO_USER = "00000000-0000-0000-0000-000000000000";
const EMPTY = { rows: [], total: 0, estimate: false };

/** POST /workspaces/{id}/assets: the filtered, ordered page (semantics in contract listing.ts). */
export function createListingService(deps: {
  db: Db;
  access: Access;
  signer: Signer;
  /** 404 unless the board is a live board of the workspace (the boards feature answers). */
  assertBoard: (workspaceId: string, boardId: string) => Promise<void>;
  /** A live board's kind and saved filter, 404 otherwise (issue 33: smart boards list their filter). */
  boardKind?: (workspaceId: string, boardId: string) => Promise<{ kind: "normal" | "smart"; filter: unknown }>;
  /** Whether the asset `similar_to` names is live in the workspace (the similar feature answers). */
  similarTarget?: (workspaceId: string, assetId: string) => Promise<boolean>;
  /** For tests: force the probe on or off, lower the cost of an exact count. */
  tuning?: ListingTuning;
  /** Where pages ended, so the next page of a scroll seeks instead of walking its offset (waypoints.ts). */
  waypoints?: Waypoints;
  /** The time rights filters and visitors' expiry compare with (tests move it). */
  clock?: { now(): Date };
}) {
  const { db, access, signer } = deps;
  const now = () => deps.clock?.now() ?? new Date();

  return {
    /**
     * A share-link visitor's page of one board inside the shared subtree (issue 17): the same plan and
     * serializer as members', with rendition URLs signed for the link.
     */
    async listBoard(visitor: VisitorActor, boardId: string, page: number, pageSize: number): Promise<AssetListAnswer> {
      const workspaceId = visitor.workspaceId;
      const grant = await access.require(visitor, LISTING.board, { kind: "board", workspaceId, boardId });
      const viewer = { ...viewerOf(visitor, grant), now: now() };
      let body = AssetListBodySchema.parse({ board_id: boardId, page, page_size: pageSize });
      const kind = await deps.boardKind?.(workspaceId, boardId);
      if (kind?.kind === "smart") {
        // The live result of the saved filter, as anyone without favourites sees it (issue 33).
        const smart = smartListing(kind.filter, body);
        if (!smart) return answer(body, EMPTY, viewer, "visitor");
        body = smart.body;
      }
      const scope = {
        workspaceId,
        userId: NO_USER,
        comments: linkCommentScope(linkViewOf(visitor)),
        now: now(),
        rightsLiveOnly: true,
      };
      return answer(body, await listingRepo.find(db, body, scope, deps.tuning), viewer, "visitor");
    },
    /** Up to SMART_ZIP_LIMIT assets matching a saved filter now, by name (a smart board's zip). */
    async smartMatchIds(workspaceId: string, saved: unknown, userId: string | null): Promise<string[]> {
      const body = savedFilter(saved, { page: 1, page_size: 1, order_by: "name" });
      if (!body) return [];
      return smartRepo.matchIds(db, body, { workspaceId, userId: userId ?? NO_USER }, SMART_ZIP_LIMIT);
    },
    /** Whether the asset matches any of these saved filters now (a share link of smart boards). */
    async matchesAnySaved(workspaceId: string, saved: unknown[], assetId: string): Promise<boolean> {
      const bodies = saved.flatMap((f) => savedFilter(f, { page: 1, page_size: 1, order_by: "name" }) ?? []);
      return smartRepo.matchesAny(db, bodies, { workspaceId, userId: NO_USER }, assetId);
    },
    async list(actor: UserActor, workspaceId: string, request: AssetListBody): Promise<AssetListAnswer> {
      const grant = await access.require(actor, LISTING.workspace, inWorkspace(workspaceId));
      const viewer = { abilities: assetAbilities(grant), issuer: issuerOf(actor), now: now() };
      let body = request;
      let also: AssetListBody | undefined;
      if (request.board_id) {
        const kind = deps.boardKind
          ? await deps.boardKind(workspaceId, request.board_id)
          : await deps.assertBoard(workspaceId, request.board_id);
        if (kind?.kind === "smart") {
          const smart = smartListing(kind.filter, request);
          if (!smart) return answer(request, EMPTY, viewer, "page");
          body = smart.body;
          also = smart.also;
        }
      }
      // A request's own similar_to must name a live asset; a saved one whose asset left matches nothing.
      const similar = request.similar_to;
      if (body.order_by === "distance" && !body.similar_to)
        throw invalid(SIMILAR_MESSAGES.distanceOrder, [{ field: "order_by", message: SIMILAR_MESSAGES.distanceOrder }]);
      if (similar && !(await deps.similarTarget?.(workspaceId, similar.asset_id)))
        throw invalid(SIMILAR_MESSAGES.unknownAsset, [
          { field: "similar_to.asset_id", message: SIMILAR_MESSAGES.unknownAsset },
        ]);
      const scope = { workspaceId, userId: actor.userId, now: now(), ...(also ? { also } : {}) };
      if (body.cursor !== undefined) {
        // A walk by cursor (issue 36): the page right after the one that made it, at any depth.
        if (body.page !== 1)
          throw invalid(CURSOR_MESSAGES.withPage, [{ field: "page", message: CURSOR_MESSAGES.withPage }]);
        const cursor = decodeCursor(body.cursor, body.order_by);
        return answer(body, await cursorRepo.findAfter(db, body, scope, cursor, deps.tuning), viewer, "cursor");
      }
      // The repo chooses the plan; it answers page_size + 1 rows, so has_more needs no count.
      // Nearest first sorts the similar matches themselves: no waypoint.
      // Rights expiring move in and out of a listing as time passes, not as rows change: no waypoint.
      // Waypoints are kept by body: a smart board narrowed by the caller's own conditions keeps none.
      const wp = body.order_by === "distance" || body.rights_expire || also ? undefined : deps.waypoints;
      const snapshot = wp?.snapshot() ?? 0;
      const offset = (body.page - 1) * body.page_size;
      const from = wp?.nearest(workspaceId, actor.userId, body, offset) ?? null;
      const found = await listingRepo.find(db, body, scope, deps.tuning, from);
      // A full page with more after it: its last asset is where the next page starts.
      const last = found.rows.length > body.page_size ? found.rows[body.page_size - 1] : undefined;
      if (wp && last) {
        // By date taken, an asset without one sorts last (seek-repo.ts).
        const nullKey = body.order_by.endsWith("date_taken") && last.date_taken === null;
        wp.remember(
          workspaceId,
          actor.userId,
          body,
          { offset: offset + body.page_size, id: last.id, nullKey },
          snapshot,
        );
      }
      return answer(body, found, viewer, "page");
    },
  };

  async function answer(
    body: AssetListBody,
    found: Awaited<ReturnType<typeof listingRepo.find>>,
    viewer: Viewer,
    /** A numbered page, a page after a cursor (its position unknown), or a visitor's (no cursor). */
    mode: "page" | "cursor" | "visitor",
  ): Promise<AssetListAnswer> {
    const { page, page_size } = body;
    const offset = (page - 1) * page_size;
    const hasMore = found.rows.length > page_size;
    const pageRows = found.rows.slice(0, page_size);
    // What a numbered page saw tightens the count: a last page makes it exact, a full one a lower bound.
    let { total, estimate } = found;
    if (mode === "cursor") {
      // Its offset is not known: the count stays the whole listing's.
    } else if (!hasMore && (pageRows.length > 0 || offset === 0)) {
      total = offset + pageRows.length;
      estimate = false;
    } else if (estimate) total = Math.max(total, offset + found.rows.length);
    const last = hasMore ? pageRows[pageRows.length - 1] : undefined;
    const nextCursor =
      last && mode !== "visitor" && last.sort_key !== undefined
        ? encodeCursor({ order: body.order_by, key: last.sort_key, id: last.id })
        : null;

    const data = await Promise.all(pageRows.map((r) => serializeView(r, signer, viewer)));
    return {
      data,
      pagination: {
        page: mode === "cursor" ? 0 : page,
        page_size,
        total_count: total,
        total_pages: Math.ceil(total / page_size),
        has_more: hasMore,
        count_is_estimate: estimate,
        next_cursor: nextCursor,
      },
    };
  }
}
export type ListingService = ReturnType<typeof createListingService>;
