import type { Updateable } from "kysely";
import type { Db } from "../../db/db.ts";
import type { AssetsTable } from "../../db/types.ts";
import { notFound } from "../../platform/errors.ts";
import { versionMovesRepo } from "./versions-moves-repo.ts";
import { factsOf, versionsRepo } from "./versions-repo.ts";

/** A new version's row, as uploads make it (waiting for bytes). */
export interface NewVersion {
  workspaceId: string;
  assetId: string;
  versionId: string;
  name: string;
  extension: string;
  contentType: string;
  size: number;
  userId: string;
  directory: string;
  key: string;
}

type Patch = Updateable<AssetsTable>;

/**
 * One version being processed, as the pipeline sees it: its row (the file's facts) and how its
 * results are written. While a version is its asset's current one, everything written goes to the
 * asset row too (an asset's first upload); a newer version writes only its own row until it is
 * COMPLETED, and then, when it is newer than the current one, becomes current in one transaction.
 */
export interface VersionWork {
  assetId: string;
  versionId: string;
  /** Whether the version was its asset's current one when the work began. */
  isCurrent: boolean;
  row: NonNullable<Awaited<ReturnType<typeof versionsRepo.get>>> & { deleted_at: Date | null };
  bumpAttempts(): Promise<number>;
  /** Writes results; answers whether the version is the asset's current one afterwards. */
  update(patch: Patch): Promise<boolean>;
  replaceAiTags(tags: Array<{ label: string; confidence: number; type: string }>): Promise<void>;
}

/** What uploads and the pipeline do to versions (the assets feature's tables, through its service). */
export function createVersionLifecycle(
  db: Db,
  replaceAssetAiTags: (assetId: string, workspaceId: string, tags: VersionWorkTags) => Promise<void>,
) {
  /** The bytes' first holder in the workspace other than this version, as found now. */
  async function duplicateOf(workspaceId: string, sha256: string, versionId: string) {
    const [first] = await versionsRepo.withSha256(db, workspaceId, sha256, versionId, 1);
    return first ? { asset_id: first.asset_id, version_id: first.version_id, name: first.name } : null;
  }

  /** Writes a version's results; a status change of a version that is not current may make it current. */
  async function write(assetId: string, versionId: string, patch: Patch): Promise<boolean> {
    return db.transaction().execute(async (tx) => {
      const asset = await versionsRepo.pointer(tx, assetId, true);
      await versionsRepo.update(tx, versionId, factsOf(patch));
      if (!asset) return false;
      if ((asset.current_version_id ?? asset.id) === versionId) {
        await versionsRepo.updateIfCurrent(tx, assetId, versionId, patch);
        return true;
      }
      if (patch.status === "COMPLETED") {
        // Newer than the current one: it takes over, whatever became of versions uploaded after it
        // (still uploading, abandoned, failed); one of those completing later takes over in turn.
        const done = await versionsRepo.get(tx, versionId);
        if (done && !done.deleted_at && done.number > asset.current_version_number) {
          await versionsRepo.keepAiTags(tx, assetId, asset.current_version_id ?? asset.id);
          await versionsRepo.promote(tx, assetId, versionId, null);
          await versionsRepo.refresh(tx, assetId);
          return true;
        }
      }
      if (patch.status !== undefined) await versionsRepo.refresh(tx, assetId);
      return false;
    });
  }

  return {
    /** A new version's row (uploading), in the caller's transaction: the asset must be live in the workspace, else 404. */
    async beginVersion(tx: Db, v: NewVersion): Promise<{ number: number }> {
      const asset = await versionsRepo.lockAsset(tx, v.workspaceId, v.assetId);
      if (!asset) throw notFound("Asset not found.");
      const number = await versionsRepo.nextNumber(tx, v.assetId);
      await versionsRepo.insert(tx, {
        id: v.versionId,
        asset_id: v.assetId,
        workspace_id: v.workspaceId,
        number,
        name: v.name,
        file_extension: v.extension,
        mime_type: v.contentType,
        size: v.size,
        uploaded_by: v.userId,
        directory: v.directory,
        storage_key: v.key,
      });
      await versionsRepo.refresh(tx, v.assetId);
      return { number };
    },

    /**
     * A version's bytes have all arrived: `processing`, with its real size, checksum and the bytes'
     * earlier holder in the workspace, if any (the asset's row too while the version is current).
     */
    async markVersionUploaded(tx: Db, assetId: string, versionId: string, size: number, sha256: string) {
      const version = await versionsRepo.get(tx, versionId);
      if (!version) return;
      const duplicate = await duplicateOf(version.workspace_id, sha256, versionId);
      const patch = { status: "processing" as const, size, sha256, duplicate_of: duplicate };
      await versionsRepo.update(tx, versionId, patch);
      if (!(await versionsRepo.updateIfCurrent(tx, assetId, versionId, patch))) await versionsRepo.refresh(tx, assetId);
    },

    /** An abandoned version upload's row; only while it still waits for bytes. */
    async deleteUploadingVersion(tx: Db, assetId: string, versionId: string) {
      await versionsRepo.deleteUploading(tx, assetId, versionId);
      await versionsRepo.refresh(tx, assetId);
    },

    // ---- Recently deleted (the trash feature) ----
    /** Versions deleted on their own, their assets live. */
    deletedVersions: (workspaceId: string) => versionMovesRepo.deleted(db, workspaceId),
    /** Brings versions back into their assets (not as current ones); answers how many. */
    restoreVersions: (workspaceId: string, ids: string[]) =>
      db.transaction().execute(async (tx) => {
        const assets = await versionMovesRepo.restore(tx, workspaceId, ids);
        for (const a of new Set(assets)) await versionsRepo.refresh(tx, a);
        return assets.length;
      }),
    /** Deletes deleted versions for good; answers how many and their media directories (the caller drops the bytes). */
    purgeVersions: (workspaceId: string, ids: string[]) =>
      db.transaction().execute(async (tx) => {
        const gone = await versionMovesRepo.purge(tx, workspaceId, ids);
        for (const a of new Set(gone.map((g) => g.asset_id))) await versionsRepo.refresh(tx, a);
        return { count: gone.length, directories: gone.flatMap((g) => (g.directory ? [g.directory] : [])) };
      }),
    expiredVersions: (cutoff: Date) => versionMovesRepo.expired(db, cutoff),

    /** Versions holding these bytes in the workspace (live or deleted), oldest first. */
    withSha256: (workspaceId: string, sha256: string) => versionsRepo.withSha256(db, workspaceId, sha256),

    /** The owner of a media directory `{workspace}/{versionId}` (every asset's first version has the asset's id). */
    mediaOwner: (workspaceId: string, versionId: string) => versionsRepo.mediaOwner(db, workspaceId, versionId),

    /** A version as the pipeline processes it; null when it (or its asset) is gone. */
    async versionWork(versionId: string): Promise<VersionWork | null> {
      const row = await versionsRepo.get(db, versionId);
      if (!row) return null;
      const asset = await versionsRepo.pointer(db, row.asset_id);
      if (!asset) return null;
      const assetId = asset.id;
      return {
        assetId,
        versionId,
        isCurrent: (asset.current_version_id ?? asset.id) === versionId,
        row: { ...row, deleted_at: row.deleted_at ?? asset.deleted_at },
        async bumpAttempts() {
          const attempts = await versionsRepo.bumpAttempts(db, versionId);
          await versionsRepo.updateIfCurrent(db, assetId, versionId, { processing_attempts: attempts });
          return attempts;
        },
        update: (patch) => write(assetId, versionId, patch),
        async replaceAiTags(tags) {
          const now = await versionsRepo.pointer(db, assetId);
          if (now && (now.current_version_id ?? now.id) === versionId)
            await replaceAssetAiTags(assetId, row.workspace_id, tags);
          else
            await versionsRepo.update(db, versionId, {
              ai_tags: tags.map(({ label, confidence, type }) => ({ label, confidence, type })),
            });
        },
      };
    },
  };
}

type VersionWorkTags = Array<{ label: string; confidence: number; type: string }>;
export type VersionLifecycle = ReturnType<typeof createVersionLifecycle>;
