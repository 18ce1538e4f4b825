import { randomUUID } from "node:crypto";
import { Asset, type TagMode, type UpdateAssetBody } from "@hangar/contract";
import { z } from "zod";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor, VisitorActor } from "../../platform/actor.ts";

/** Favourites are a member's own; a visitor has none (a user id no row carries). */
const NO_USER = "00000000-0000-0000-0000-000000000000";
const userIdOf = (actor: UserActor | VisitorActor) => (actor.kind === "user" ? actor.userId : NO_USER);

import { notFound } from "../../platform/errors.ts";
import { cacheKeys, type ReadCache } from "../../platform/read-cache.ts";
import type { Signer } from "../../storage/signer.ts";
import { createAssetLifecycle } from "./lifecycle-service.ts";
import { ASSET } from "./policy.ts";
import { assetsRepo } from "./repo.ts";
import { serializeView, type Viewer, viewerOf } from "./serialize.ts";
import type { VersionGate } from "./versions-lifecycle.ts";
import { assetViewCacheDeps } from "./view.ts";
import { type AssetViewRow, assetViewRepo } from "./view-repo.ts";
import { linkCommentScope, linkViewOf } from "./visitor-view.ts";

export function createAssetsService(deps: {
  db: Db;
  access: Access;
  signer: Signer;
  cache: ReadCache;
  /** 404 unless the board is a live board of the workspace (the boards feature answers). */
  assertBoard: (workspaceId: string, boardId: string) => Promise<void>;
  /** Reviews lock approved assets and hear of new current versions (issue 30). */
  versionGate?: VersionGate;
  /** The time answers' rights status is judged at (issue 33; tests move it). */
  clock?: { now(): Date };
}) {
  const { db, access, signer, cache } = deps;

  /** One statement: the row with its tags, AI tags, boards and the caller's favourite. */
  async function liveRow(actor: UserActor | VisitorActor, workspaceId: string, assetId: string): Promise<AssetViewRow> {
    const rows = await assetViewRepo.rows(
      db,
      assetsRepo.liveIdSql(workspaceId, assetId),
      userIdOf(actor),
      actor.kind === "visitor" ? linkCommentScope(linkViewOf(actor)) : undefined,
    );
    const row = rows[0];
    if (!row) throw notFound("Asset not found.");
    return row;
  }
  const toApi = (row: AssetViewRow, viewer: Viewer): Promise<Asset> =>
    serializeView(row, signer, { ...viewer, now: deps.clock?.now() });

  const lifecycle = createAssetLifecycle(db, deps.versionGate);
  const { requireLive } = lifecycle;

  return {
    ...lifecycle,
    async edit(actor: UserActor, workspaceId: string, assetId: string, body: UpdateAssetBody): Promise<Asset> {
      await access.require(actor, ASSET.edit, { kind: "asset", workspaceId, assetId });
      await requireLive(workspaceId, [assetId]);
      const patch: { name?: string; description?: string | null } = {};
      if (body.name !== undefined) patch.name = body.name;
      // An empty description is stored as null (spec 02 §5).
      if (body.description !== undefined) patch.description = body.description?.trim() ? body.description : null;
      await assetsRepo.update(db, assetId, patch);
      return this.get(actor, workspaceId, assetId);
    },
    async setTags(
      actor: UserActor,
      workspaceId: string,
      assetIds: string[],
      tags: string[],
      mode: TagMode = "replace",
    ) {
      await access.require(actor, ASSET.tag, inWorkspace(workspaceId));
      const ids = await requireLive(workspaceId, assetIds);
      await assetsRepo.setTags(db, workspaceId, ids, tags, mode);
      return { status: "ok" as const, count: ids.length };
    },
    /** Any member may favourite (COMMENTER too); the favourite is the caller's own. */
    async setFavorite(actor: UserActor, workspaceId: string, assetIds: string[], favorite: boolean) {
      await access.require(actor, ASSET.favorite, inWorkspace(workspaceId));
      const ids = await requireLive(workspaceId, assetIds);
      await assetsRepo.setFavorite(db, actor.userId, ids, favorite);
      return { status: "ok" as const, count: ids.length };
    },
    async move(actor: UserActor, workspaceId: string, assetIds: string[], destination: string | null) {
      await access.require(actor, ASSET.move, inWorkspace(workspaceId));
      const ids = await requireLive(workspaceId, assetIds);
      if (destination) await deps.assertBoard(workspaceId, destination);
      await assetsRepo.move(db, ids, destination, actor.userId);
      return { status: "ok" as const, count: ids.length };
    },
    async remove(actor: UserActor, workspaceId: string, assetIds: string[]) {
      await access.require(actor, ASSET.delete, inWorkspace(workspaceId));
      const ids = await requireLive(workspaceId, assetIds);
      const count = await assetsRepo.softDelete(db, workspaceId, ids, actor.userId, randomUUID());
      return { status: "ok" as const, count };
    },
    /** Several assets as a member sees them (live ones, in the order asked; one statement). */
    async many(actor: UserActor, workspaceId: string, assetIds: string[]): Promise<Asset[]> {
      const grant = await access.require(actor, ASSET.list, inWorkspace(workspaceId));
      if (assetIds.length === 0) return [];
      const rows = await assetViewRepo.rows(db, assetsRepo.liveIdsSql(workspaceId, assetIds), actor.userId);
      const viewer = viewerOf(actor, grant);
      return Promise.all(rows.map((r) => toApi(r, viewer)));
    },
    async get(actor: UserActor | VisitorActor, workspaceId: string, assetId: string): Promise<Asset> {
      const grant = await access.require(actor, ASSET.view, { kind: "asset", workspaceId, assetId });
      return toApi(await liveRow(actor, workspaceId, assetId), viewerOf(actor, grant));
    },
    /** An asset as the GET answers it, also once in Recently deleted (webhooks' asset.deleted). */
    async getAny(actor: UserActor, workspaceId: string, assetId: string): Promise<Asset> {
      const grant = await access.require(actor, ASSET.view, inWorkspace(workspaceId));
      const [row] = await assetViewRepo.rows(db, assetsRepo.idSql(workspaceId, assetId), actor.userId);
      if (!row) throw notFound("Asset not found.");
      return toApi(row, viewerOf(actor, grant));
    },
    /**
     * The asset GET's answer, as the JSON the route sends: serialised once through the contract's
     * schema and kept in the read cache until anything in the workspace changes, so a repeated GET
     * costs no query, no URL signing and no serialising.
     */
    async getJson(actor: UserActor, workspaceId: string, assetId: string): Promise<string> {
      const grant = await access.require(actor, ASSET.view, { kind: "asset", workspaceId, assetId });
      // Per user, and void once anything in the workspace changes (a role change too): the
      // abilities and the URL's issuer inside stay right.
      const key = cacheKeys.asset(actor.userId, workspaceId, assetId);
      const hit = actor.fresh ? undefined : cache.get<string>(key);
      if (hit) return hit;
      const snap = cache.snapshot();
      const asset = await toApi(await liveRow(actor, workspaceId, assetId), viewerOf(actor, grant));
      const json = JSON.stringify(z.encode(Asset, asset));
      // Rights that will expire change the answer's status with time alone: not kept (issue 33).
      const expiresLater = asset.rights.expires_at !== null && asset.rights_status !== "expired";
      if (!expiresLater) cache.set(key, json, assetViewCacheDeps(workspaceId), snap);
      return json;
    },
    async tags(actor: UserActor, workspaceId: string) {
      await access.require(actor, ASSET.list, inWorkspace(workspaceId));
      return assetsRepo.workspaceTags(db, workspaceId);
    },
    async aiTags(actor: UserActor, workspaceId: string) {
      await access.require(actor, ASSET.list, inWorkspace(workspaceId));
      return assetsRepo.workspaceAiTags(db, workspaceId);
    },
  };
}
export type AssetsService = ReturnType<typeof createAssetsService>;
