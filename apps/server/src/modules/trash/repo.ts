import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

const who = sql<string | null>`nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '')`;

export const trashRepo = {
  deletedAssets(db: Db, workspaceId: string) {
    return db
      .selectFrom("assets as a")
      .leftJoin("users as u", "u.id", "a.deleted_by")
      .select([
        "a.id",
        "a.name",
        "a.file_type",
        "a.directory",
        "a.renditions",
        "a.deleted_at",
        "a.delete_batch",
        "u.id as by_id",
        "u.email as by_email",
        who.as("by_name"),
      ])
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is not", null)
      .orderBy("a.deleted_at", "desc")
      .limit(1000)
      .execute();
  },
  /** The boards a user deleted (tops of their batches), not every sub-board that went with them. */
  deletedBoards(db: Db, workspaceId: string) {
    return db
      .selectFrom("boards as b")
      .leftJoin("boards as p", "p.id", "b.parent_id")
      .leftJoin("users as u", "u.id", "b.deleted_by")
      .select([
        "b.id",
        "b.name",
        "b.deleted_at",
        "b.delete_batch",
        "u.id as by_id",
        "u.email as by_email",
        who.as("by_name"),
      ])
      .where("b.workspace_id", "=", workspaceId)
      .where("b.deleted_at", "is not", null)
      .where((eb) =>
        eb.or([eb("b.parent_id", "is", null), eb("p.delete_batch", "is distinct from", eb.ref("b.delete_batch"))]),
      )
      .orderBy("b.deleted_at", "desc")
      .limit(1000)
      .execute();
  },
  async restoreAssets(db: Db, workspaceId: string, ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const r = await db
      .updateTable("assets")
      .set({ deleted_at: null, deleted_by: null, delete_batch: null })
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is not", null)
      .where("id", "in", ids)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  /** Deletes asset rows for good; answers their media directories so the bytes can go too. */
  async purgeAssets(db: Db, workspaceId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await db
      .deleteFrom("assets")
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is not", null)
      .where("id", "in", ids)
      .returning("directory")
      .execute();
    return rows.flatMap((r) => (r.directory ? [r.directory] : []));
  },
  /** Deletes deleted boards for good with everything of their batch (sub-boards, assets). */
  async purgeBoards(db: Db, workspaceId: string, ids: string[]): Promise<{ boards: number; directories: string[] }> {
    if (!ids.length) return { boards: 0, directories: [] };
    return db.transaction().execute(async (tx) => {
      const batches = await tx
        .selectFrom("boards")
        .select("delete_batch")
        .where("workspace_id", "=", workspaceId)
        .where("deleted_at", "is not", null)
        .where("id", "in", ids)
        .execute();
      const keys = batches.flatMap((b) => (b.delete_batch ? [b.delete_batch] : []));
      if (!keys.length) return { boards: 0, directories: [] };
      const assets = await tx
        .deleteFrom("assets")
        .where("workspace_id", "=", workspaceId)
        .where("deleted_at", "is not", null)
        .where("delete_batch", "in", keys)
        .returning("directory")
        .execute();
      const boards = await tx
        .deleteFrom("boards")
        .where("workspace_id", "=", workspaceId)
        .where("deleted_at", "is not", null)
        .where("delete_batch", "in", keys)
        .executeTakeFirst();
      return {
        boards: Number(boards.numDeletedRows),
        directories: assets.flatMap((a) => (a.directory ? [a.directory] : [])),
      };
    });
  },
  /** Everything deleted before the cutoff, per workspace, for the auto-purge job. */
  expired(db: Db, cutoff: Date) {
    return Promise.all([
      db.selectFrom("assets").select(["id", "workspace_id"]).where("deleted_at", "<", cutoff).limit(5000).execute(),
      db.selectFrom("boards").select(["id", "workspace_id"]).where("deleted_at", "<", cutoff).limit(5000).execute(),
    ]);
  },
};
