import type { Asset } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import type { Access } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { notFound } from "../../platform/errors.ts";
import type { Signer } from "../../storage/signer.ts";
import { type AssetRow, assetsRepo } from "./repo.ts";
import { toAsset } from "./serialize.ts";

export function createAssetsService(deps: { db: Db; access: Access; signer: Signer }) {
  const { db, access, signer } = deps;

  async function serialize(rows: AssetRow[]): Promise<Asset[]> {
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
        ),
      ),
    );
  }

  return {
    serialize,
    async get(actor: UserActor, workspaceId: string, assetId: string): Promise<Asset> {
      await access.require(actor, "workspace.read", workspaceId);
      const row = await assetsRepo.get(db, workspaceId, assetId);
      if (!row) throw notFound("Asset not found.");
      return (await serialize([row]))[0]!;
    },
    async tags(actor: UserActor, workspaceId: string) {
      await access.require(actor, "workspace.read", workspaceId);
      return assetsRepo.workspaceTags(db, workspaceId);
    },
    async aiTags(actor: UserActor, workspaceId: string) {
      await access.require(actor, "workspace.read", workspaceId);
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
