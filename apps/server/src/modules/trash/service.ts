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

  async function purge(workspaceId: string, assetIds: string[], boardIds: string[]) {
    // A deleted board goes for good with everything of its batch (sub-boards, assets), atomically.
    const b = await db.transaction().execute(async (tx) => {
      const batches = await trashRepo.batchesOf(tx, workspaceId, boardIds);
      const directories = await deps.assets.purge(workspaceId, { batches }, tx);
      return { directories, boards: await trashRepo.purgeBoardBatches(tx, workspaceId, batches) };
    });
    const dirs = await deps.assets.purge(workspaceId, { ids: assetIds });
    // Rows first, bytes after: a crash in between leaves unreferenced bytes, never a row without bytes.
    await dropBytes([...b.directories, ...dirs]);
    return { status: "ok" as const, assets: dirs.length + b.directories.length, boards: b.boards };
  }

  /** Everything deleted longer ago than the retention, with its bytes (jobs/purge-trash.ts). */
  async function purgeExpired() {
    const [assets, boards] = await trashRepo.expired(db, new Date(Date.now() - TRASH_RETENTION_DAYS * DAY));
    const byWs = new Map<string, { a: string[]; b: string[] }>();
    for (const a of assets)
      (byWs.get(a.workspace_id) ?? byWs.set(a.workspace_id, { a: [], b: [] }).get(a.workspace_id)!).a.push(a.id);
    for (const b of boards)
      (byWs.get(b.workspace_id) ?? byWs.set(b.workspace_id, { a: [], b: [] }).get(b.workspace_id)!).b.push(b.id);
    for (const [ws, sel] of byWs) await purge(ws, sel.a, sel.b);
  }

  return {
    purgeExpired,
    async list(actor: UserActor, workspaceId: string) {
      await access.require(actor, TRASH.view, inWorkspace(workspaceId));
      const [assets, boards] = await Promise.all([
        trashRepo.deletedAssets(db, workspaceId),
        trashRepo.deletedBoards(db, workspaceId),
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
      };
    },
    /** Assets come back into their boards (or show at the root when those boards are gone). */
    async restore(actor: UserActor, workspaceId: string, assetIds: string[], boardIds: string[]) {
      await access.require(actor, TRASH.restore, inWorkspace(workspaceId));
      let boards = 0;
      let assets = 0;
      for (const id of boardIds) {
        const r = await deps.boards.restore(actor, workspaceId, id);
        boards += r.restored_boards;
        assets += r.restored_assets;
      }
      assets += await deps.assets.restore(workspaceId, assetIds);
      return { status: "ok" as const, assets, boards };
    },
    async purge(actor: UserActor, workspaceId: string, assetIds: string[], boardIds: string[]) {
      await access.require(actor, TRASH.purge, inWorkspace(workspaceId));
      return purge(workspaceId, assetIds, boardIds);
    },
  };
}
export type TrashService = ReturnType<typeof createTrashService>;
