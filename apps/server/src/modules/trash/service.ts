import { TRASH_RETENTION_DAYS } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import type { Renditions } from "../../db/types.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import type { AssetLifecycle } from "../assets/index.ts";
import type { BoardsService } from "../boards/index.ts";
import { TRASH } from "./policy.ts";
import { trashRepo } from "./repo.ts";

const DAY = 86_400_000;
const person = (r: { by_id: string | null; by_name: string | null; by_email: string | null }) =>
  r.by_id ? { id: r.by_id, name: r.by_name ?? r.by_email ?? "Someone" } : null;

/** Recently deleted: what was soft-deleted, restorable for 30 days, then purged with its bytes. */
export function createTrashService(deps: {
  db: Db;
  access: Access;
  store: BlobStore;
  boards: BoardsService;
  assets: AssetLifecycle;
}) {
  const { db, access, store } = deps;

  async function dropBytes(directories: string[]) {
    for (const d of directories) await store.deletePrefix(`media/${d}`);
  }

  async function purge(workspaceId: string, assetIds: string[], boardIds: string[], versionIds: string[] = []) {
    // A deleted board goes for good with everything of its batch (sub-boards, assets), atomically.
    const b = await db.transaction().execute(async (tx) => {
      const batches = await trashRepo.batchesOf(tx, workspaceId, boardIds);
      const gone = await deps.assets.purge(workspaceId, { batches }, tx);
      return { gone, boards: await trashRepo.purgeBoardBatches(tx, workspaceId, batches) };
    });
    const a = await deps.assets.purge(workspaceId, { ids: assetIds });
    const v = await deps.assets.purgeVersions(workspaceId, versionIds);
    // Rows first, bytes after: a crash in between leaves unreferenced bytes, never a row without bytes.
    await dropBytes([...b.gone.directories, ...a.directories, ...v.directories]);
    return {
      status: "ok" as const,
      assets: a.count + b.gone.count,
      boards: b.boards,
      ...(versionIds.length ? { versions: v.count } : {}),
    };
  }

  /** Everything deleted longer ago than the retention, with its bytes (jobs/purge-trash.ts). */
  async function purgeExpired() {
    const cutoff = new Date(Date.now() - TRASH_RETENTION_DAYS * DAY);
    const [assets, boards] = await trashRepo.expired(db, cutoff);
    const versions = await deps.assets.expiredVersions(cutoff);
    const byWs = new Map<string, { a: string[]; b: string[]; v: string[] }>();
    const of = (ws: string) => byWs.get(ws) ?? byWs.set(ws, { a: [], b: [], v: [] }).get(ws)!;
    for (const a of assets) of(a.workspace_id).a.push(a.id);
    for (const b of boards) of(b.workspace_id).b.push(b.id);
    for (const v of versions) of(v.workspace_id).v.push(v.id);
    for (const [ws, sel] of byWs) await purge(ws, sel.a, sel.b, sel.v);
  }

  return {
    purgeExpired,
    async list(actor: UserActor, workspaceId: string) {
      await access.require(actor, TRASH.view, inWorkspace(workspaceId));
      const [assets, boards, versions] = await Promise.all([
        trashRepo.deletedAssets(db, workspaceId),
        trashRepo.deletedBoards(db, workspaceId),
        deps.assets.deletedVersions(workspaceId),
      ]);
      const purgeAt = (d: Date) => new Date(d.getTime() + TRASH_RETENTION_DAYS * DAY).toISOString();
      return {
        assets: assets.map((a) => {
          const r = (a.renditions ?? {}) as Renditions;
          const thumb = r.grid ?? r.thumbnail;
          return {
            id: a.id,
            name: a.name,
            kind: "asset" as const,
            file_type: a.file_type,
            thumbnail_url: thumb && a.directory ? `/media/${a.directory}/${thumb}` : null,
            deleted_at: a.deleted_at!.toISOString(),
            deleted_by: person(a),
            batch_id: a.delete_batch,
            purge_at: purgeAt(a.deleted_at!),
          };
        }),
        boards: boards.map((b) => ({
          id: b.id,
          name: b.name,
          kind: "board" as const,
          file_type: null,
          thumbnail_url: null,
          deleted_at: b.deleted_at!.toISOString(),
          deleted_by: person(b),
          batch_id: b.delete_batch,
          purge_at: purgeAt(b.deleted_at!),
        })),
        versions: versions.map((v) => {
          const r = (v.renditions ?? {}) as Renditions;
          const thumb = r.grid ?? r.thumbnail;
          return {
            id: v.id,
            name: v.name,
            kind: "version" as const,
            file_type: v.file_type,
            thumbnail_url: thumb && v.directory ? `/media/${v.directory}/${thumb}` : null,
            deleted_at: v.deleted_at!.toISOString(),
            deleted_by: person(v),
            batch_id: v.delete_batch,
            purge_at: purgeAt(v.deleted_at!),
            asset_id: v.asset_id,
            version_number: v.number,
          };
        }),
      };
    },
    /** Assets come back into their boards (or show at the root when those boards are gone). */
    async restore(
      actor: UserActor,
      workspaceId: string,
      assetIds: string[],
      boardIds: string[],
      versionIds: string[] = [],
    ) {
      await access.require(actor, TRASH.restore, inWorkspace(workspaceId));
      let boards = 0;
      let assets = 0;
      for (const id of boardIds) {
        const r = await deps.boards.restore(actor, workspaceId, id);
        boards += r.restored_boards;
        assets += r.restored_assets;
      }
      assets += await deps.assets.restore(workspaceId, assetIds);
      if (!versionIds.length) return { status: "ok" as const, assets, boards };
      const versions = await deps.assets.restoreVersions(workspaceId, versionIds);
      return { status: "ok" as const, assets, boards, versions };
    },
    async purge(
      actor: UserActor,
      workspaceId: string,
      assetIds: string[],
      boardIds: string[],
      versionIds: string[] = [],
    ) {
      await access.require(actor, TRASH.purge, inWorkspace(workspaceId));
      return purge(workspaceId, assetIds, boardIds, versionIds);
    },
  };
}
export type TrashService = ReturnType<typeof createTrashService>;
