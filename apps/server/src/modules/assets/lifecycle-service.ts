import type { Db } from "../../db/db.ts";
import { notFound } from "../../platform/errors.ts";
import { lifecycleRepo, type NewAsset } from "./lifecycle-repo.ts";
import { assetsRepo } from "./repo.ts";
import { createVersionLifecycle, type VersionGate } from "./versions-lifecycle.ts";

export type { NewAsset } from "./lifecycle-repo.ts";

/**
 * What other features do to asset rows (uploads create them, the pipeline fills in what it found,
 * boards file and delete them, trash restores and purges them), as the assets feature's service: the only way into its tables. No
 * access checks here: each caller has checked its own action. Every function takes an optional
 * transaction (`tx`), so a caller's statements and these commit or roll back together.
 */
export function createAssetLifecycle(db: Db, gate?: VersionGate) {
  const versions = createVersionLifecycle(
    db,
    (assetId, workspaceId, tags) => assetsRepo.replaceAiTags(db, assetId, workspaceId, tags),
    gate,
  );
  return {
    ...versions,
    // For the pipeline (same process or a worker machine): rows by id, results, failures.
    byId: (assetId: string) => assetsRepo.byId(db, assetId),
    update: (assetId: string, patch: Parameters<typeof assetsRepo.update>[2]) => assetsRepo.update(db, assetId, patch),
    bumpAttempts: (assetId: string) => assetsRepo.bumpAttempts(db, assetId),
    replaceAiTags: (
      assetId: string,
      workspaceId: string,
      tags: Array<{ label: string; confidence: number; type: string }>,
    ) => assetsRepo.replaceAiTags(db, assetId, workspaceId, tags),
    /** The ids among `assetIds` that are live assets of the workspace. */
    liveIds: (workspaceId: string, assetIds: string[], tx: Db = db) => assetsRepo.liveIds(tx, workspaceId, assetIds),
    /** Every id must be a live asset of the workspace, else 404 (nothing is changed); answers them once each. */
    async requireLive(workspaceId: string, assetIds: string[], tx: Db = db): Promise<string[]> {
      const unique = [...new Set(assetIds)];
      const live = await assetsRepo.liveIds(tx, workspaceId, unique);
      if (live.length !== unique.length) throw notFound("Asset not found.");
      return unique;
    },
    /** The row and its board membership, atomically (in the caller's transaction when given one). */
    create: (a: NewAsset, tx: Db = db) =>
      tx.isTransaction ? lifecycleRepo.insert(tx, a) : tx.transaction().execute((t) => lifecycleRepo.insert(t, a)),
    /** The bytes arrived: the version (by default the asset's first) goes to `processing` (versions-lifecycle.ts). */
    markUploaded: (assetId: string, size: number, sha256: string, tx: Db = db, versionId = assetId) =>
      versions.markVersionUploaded(tx, assetId, versionId, size, sha256),
    deleteUploading: (assetId: string, tx: Db = db) => lifecycleRepo.deleteUploading(tx, assetId),
    softDeleteOnlyIn: (workspaceId: string, boardIds: string[], userId: string, batch: string, tx: Db = db) =>
      lifecycleRepo.softDeleteOnlyIn(tx, workspaceId, boardIds, userId, batch),
    restoreBatch: (workspaceId: string, batch: string, tx: Db = db) =>
      lifecycleRepo.restoreBatch(tx, workspaceId, batch),
    restore: (workspaceId: string, ids: string[], tx: Db = db) => lifecycleRepo.restore(tx, workspaceId, ids),
    purge: (workspaceId: string, by: { ids: string[] } | { batches: string[] }, tx: Db = db) =>
      lifecycleRepo.purge(tx, workspaceId, by),
    addToBoard: (boardId: string, assetIds: string[], userId: string, tx: Db = db) =>
      lifecycleRepo.addToBoard(tx, boardId, assetIds, userId),
    removeFromBoard: (boardId: string, assetIds: string[], tx: Db = db) =>
      lifecycleRepo.removeFromBoard(tx, boardId, assetIds),
  };
}
export type AssetLifecycle = ReturnType<typeof createAssetLifecycle>;
