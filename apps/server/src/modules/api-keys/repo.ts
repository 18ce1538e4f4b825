import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

const LIST_COLUMNS = [
  "k.id",
  "k.name",
  "k.prefix",
  "k.scopes",
  "k.created_at",
  "k.last_used_at",
  "k.expires_at",
  "k.revoked_at",
  "u.id as creator_id",
  "u.first_name as creator_first_name",
  "u.last_name as creator_last_name",
  "u.email as creator_email",
] as const;

/** The api_keys table (owned by this module). */
export const apiKeysRepo = {
  async insert(
    db: Db,
    row: {
      workspace_id: string;
      name: string;
      prefix: string;
      secret_hash: string;
      scopes: string[];
      created_by: string;
      expires_at: string | null;
    },
  ) {
    const { id } = await db.insertInto("api_keys").values(row).returning("id").executeTakeFirstOrThrow();
    return (await apiKeysRepo.get(db, row.workspace_id, id))!;
  },
  get(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom("api_keys as k")
      .leftJoin("users as u", "u.id", "k.created_by")
      .select(LIST_COLUMNS)
      .where("k.workspace_id", "=", workspaceId)
      .where("k.id", "=", id)
      .executeTakeFirst();
  },
  /** Newest first; a workspace holds few keys, so the list is whole (bounded all the same). */
  list(db: Db, workspaceId: string) {
    return db
      .selectFrom("api_keys as k")
      .leftJoin("users as u", "u.id", "k.created_by")
      .select(LIST_COLUMNS)
      .where("k.workspace_id", "=", workspaceId)
      .orderBy("k.created_at", "desc")
      .orderBy("k.id")
      .limit(1000)
      .execute();
  },
  /** Marks the key revoked (once: a second revoke keeps the first time). False when no such key. */
  async revoke(db: Db, workspaceId: string, id: string): Promise<boolean> {
    const r = await db
      .updateTable("api_keys")
      .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  /** The key a secret's hash names, with whether its workspace is live and the database's clock. */
  bySecretHash(db: Db, secretHash: string) {
    return db
      .selectFrom("api_keys as k")
      .innerJoin("workspaces as w", "w.id", "k.workspace_id")
      .select([
        "k.id",
        "k.workspace_id",
        "k.scopes",
        "k.created_by",
        "k.last_used_at",
        "k.expires_at",
        "k.revoked_at",
        sql<boolean>`w.deleted_at IS NULL`.as("workspace_live"),
        sql<Date>`now()`.as("now"),
      ])
      .where("k.secret_hash", "=", secretHash)
      .executeTakeFirst();
  },
  /** Records a use, at most once a minute per key (the condition makes parallel requests write once). */
  async touch(db: Db, id: string): Promise<void> {
    await db
      .updateTable("api_keys")
      .set({ last_used_at: sql<Date>`now()` })
      .where("id", "=", id)
      .where((eb) =>
        eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", sql<Date>`now() - interval '1 minute'`)]),
      )
      .execute();
  },
};
