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
  /** The delete batches of these deleted boards (their sub-boards and assets went in the same ones). */
  async batchesOf(db: Db, workspaceId: string, boardIds: string[]): Promise<string[]> {
    if (!boardIds.length) return [];
    const rows = await db
      .selectFrom("boards")
      .select("delete_batch")
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is not", null)
      .where("id", "in", boardIds)
      .execute();
    return rows.flatMap((b) => (b.delete_batch ? [b.delete_batch] : []));
  },
  /** Deletes the deleted boards of these batches for good. */
  async purgeBoardBatches(db: Db, workspaceId: string, batches: string[]): Promise<number> {
    if (!batches.length) return 0;
    const r = await db
      .deleteFrom("boards")
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is not", null)
      .where("delete_batch", "in", batches)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },
  /** Everything deleted before the cutoff, per workspace, for the auto-purge job. */
  expired(db: Db, cutoff: Date) {
    return Promise.all([
      db.selectFrom("assets").select(["id", "workspace_id"]).where("deleted_at", "<", cutoff).limit(5000).execute(),
      db.selectFrom("boards").select(["id", "workspace_id"]).where("deleted_at", "<", cutoff).limit(5000).execute(),
    ]);
  },
};
