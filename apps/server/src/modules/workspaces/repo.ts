import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { RoleColumn } from "../../db/types.ts";

export interface WorkspaceWithRole {
  id: string;
  name: string;
  created_at: Date;
  user_role: RoleColumn;
  member_count: number;
}

function baseForUser(db: Db, userId: string) {
  return db
    .selectFrom("workspaces as w")
    .innerJoin("memberships as m", (j) => j.onRef("m.workspace_id", "=", "w.id").on("m.user_id", "=", userId))
    .select([
      "w.id",
      "w.name",
      "w.created_at",
      "m.role as user_role",
      sql<number>`(select count(*)::int from memberships mm where mm.workspace_id = w.id)`.as("member_count"),
    ])
    .where("w.deleted_at", "is", null);
}

export const workspacesRepo = {
  listForUser(db: Db, userId: string): Promise<WorkspaceWithRole[]> {
    return baseForUser(db, userId).orderBy("w.name").orderBy("w.id").execute();
  },
  getForUser(db: Db, workspaceId: string, userId: string): Promise<WorkspaceWithRole | undefined> {
    return baseForUser(db, userId).where("w.id", "=", workspaceId).executeTakeFirst();
  },
  async insertWithAdmin(db: Db, name: string, userId: string): Promise<string> {
    return db.transaction().execute(async (tx) => {
      const ws = await tx
        .insertInto("workspaces")
        .values({ name, created_by: userId })
        .returning("id")
        .executeTakeFirstOrThrow();
      await tx.insertInto("memberships").values({ workspace_id: ws.id, user_id: userId, role: "ADMIN" }).execute();
      return ws.id;
    });
  },
  async rename(db: Db, workspaceId: string, name: string) {
    await db.updateTable("workspaces").set({ name, updated_at: new Date() }).where("id", "=", workspaceId).execute();
  },
  async softDelete(db: Db, workspaceId: string, userId: string) {
    await db
      .updateTable("workspaces")
      .set({ deleted_at: new Date(), deleted_by: userId })
      .where("id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .execute();
  },
  /** Restores a soft-deleted workspace for one of its admins; answers whether anything changed. */
  async restore(db: Db, workspaceId: string, userId: string): Promise<boolean> {
    const r = await db
      .updateTable("workspaces")
      .set({ deleted_at: null, deleted_by: null })
      .where("id", "=", workspaceId)
      .where("deleted_at", "is not", null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("memberships")
            .select("user_id")
            .where("workspace_id", "=", workspaceId)
            .where("user_id", "=", userId)
            .where("role", "=", "ADMIN"),
        ),
      )
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  async purgeDeletedBefore(db: Db, cutoff: Date): Promise<number> {
    const r = await db.deleteFrom("workspaces").where("deleted_at", "<", cutoff).executeTakeFirst();
    return Number(r.numDeletedRows);
  },
};
