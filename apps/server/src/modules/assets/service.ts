import { randomUUID } from "node:crypto";
import { Asset, type UpdateAssetBody } from "@hangar/contract";
import { z } from "zod";
import type { Db } from "../../db/db.ts";
import { type Access, type Grant, inWorkspace, issuerOf } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { notFound } from "../../platform/errors.ts";
import { cacheKeys, type ReadCache } from "../../platform/read-cache.ts";
import type { Signer } from "../../storage/signer.ts";
import { type ListedRow, listingRepo } from "./listing-repo.ts";
import { ASSET, assetAbilities } from "./policy.ts";
import { type AssetRow, assetsRepo } from "./repo.ts";
import { toAsset, type Viewer } from "./serialize.ts";

export function createAssetsService(deps: {
  db: Db;
  access: Access;
  signer: Signer;
  cache: ReadCache;
  /** 404 unless the board is a live board of the workspace (the boards feature answers). */
  assertBoard: (workspaceId: string, boardId: string) => Promise<void>;
}) {
  const { db, access, signer, cache } = deps;

  /** One statement: the row with its tags, AI tags, boards and the caller's favourite. */
  async function liveRow(actor: UserActor, workspaceId: string, assetId: string): Promise<ListedRow> {
    const row = (await listingRepo.page(db, assetsRepo.liveIdSql(workspaceId, assetId), actor.userId))[0];
    if (!row) throw notFound("Asset not found.");
    return row;
  }
  const viewerOf = (actor: UserActor, grant: Grant): Viewer => ({
    abilities: assetAbilities(grant),
    issuer: issuerOf(actor),
  });
  async function toApi(row: ListedRow, viewer: Viewer): Promise<Asset> {
    const asset = await toAsset(row, { tags: row.tag_names, aiTags: row.ai, boards: row.board_list }, signer, viewer);
    asset.favorite = row.is_favorite;
    return asset;
  }

  async function serialize(rows: AssetRow[], viewer: Viewer): Promise<Asset[]> {
    const rel = await assetsRepo.relations(
      db,
      rows.map((r) => r.id),
    );
    return Promise.all(
      rows.map((row) =>
        toAsset(
          row,
          {
            tags: rel.tags.filter((t) => t.asset_id === row.id).map((t) => t.name),
            aiTags: rel.aiTags.filter((t) => t.asset_id === row.id),
            boards: rel.boards.filter((b) => b.asset_id === row.id).map((b) => ({ id: b.id, name: b.name })),
          },
          signer,
          viewer,
        ),
      ),
    );
  }

  /** Every id must be a live asset of the workspace, else 404 (nothing is changed). */
  async function requireLive(workspaceId: string, assetIds: string[]): Promise<string[]> {
    const unique = [...new Set(assetIds)];
    const live = await assetsRepo.liveIds(db, workspaceId, unique);
    if (live.length !== unique.length) throw notFound("Asset not found.");
    return unique;
  }

  return {
    serialize,
    requireLive,
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
    async setTags(actor: UserActor, workspaceId: string, assetIds: string[], tags: string[]) {
      await access.require(actor, ASSET.tag, inWorkspace(workspaceId));
      const ids = await requireLive(workspaceId, assetIds);
      await assetsRepo.setTags(db, workspaceId, ids, tags);
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
    favoritesOf: (userId: string, assetIds: string[]) => assetsRepo.favoritesOf(db, userId, assetIds),
    async get(actor: UserActor, workspaceId: string, assetId: string): Promise<Asset> {
      const grant = await access.require(actor, ASSET.view, { kind: "asset", workspaceId, assetId });
      return toApi(await liveRow(actor, workspaceId, assetId), viewerOf(actor, grant));
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
      const json = JSON.stringify(
        z.encode(Asset, await toApi(await liveRow(actor, workspaceId, assetId), viewerOf(actor, grant))),
      );
      cache.set(key, json, [cacheKeys.workspace(workspaceId)], snap);
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
    // For the pipeline (same process or a worker machine): rows by id, results, failures.
    byId: (assetId: string) => assetsRepo.byId(db, assetId),
    update: (assetId: string, patch: Parameters<typeof assetsRepo.update>[2]) => assetsRepo.update(db, assetId, patch),
    bumpAttempts: (assetId: string) => assetsRepo.bumpAttempts(db, assetId),
    replaceAiTags: (
      assetId: string,
      workspaceId: string,
      tags: Array<{ label: string; confidence: number; type: string }>,
    ) => assetsRepo.replaceAiTags(db, assetId, workspaceId, tags),
  };
}
export type AssetsService = ReturnType<typeof createAssetsService>;
