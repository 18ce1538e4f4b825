import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

const COLUMNS = [
  "id",
  "name",
  "prefix",
  "scopes",
  "created_at",
  "last_used_at",
  "expires_at",
  "revoked_at",
  "revoked_reason",
] as const;

/** The personal_tokens table (owned by this module, beside the workspace keys it shares its machinery with). */
export const personalTokensRepo = {
  async insert(
    db: Db,
    row: { user_id: string; name: string; prefix: string; secret_hash: string; scopes: string[]; expires_at: Date },
  ) {
    return db.insertInto("personal_tokens").values(row).returning(COLUMNS).executeTakeFirstOrThrow();
  },
  /** Newest first; a person holds few tokens, so the list is whole (bounded all the same). */
  list(db: Db, userId: string) {
    return db
      .selectFrom("personal_tokens")
      .select(COLUMNS)
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(1000)
      .execute();
  },
  /** Marks the token revoked (once: a second revoke keeps the first time). False when the user has no such token. */
  async revoke(db: Db, userId: string, id: string): Promise<boolean> {
    const r = await db
      .updateTable("personal_tokens")
      .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  /** The token a secret's hash names, with the database's clock. */
  bySecretHash(db: Db, secretHash: string) {
    return db
      .selectFrom("personal_tokens")
      .select(["id", "user_id", "name", "scopes", "last_used_at", "expires_at", "revoked_at", "revoked_reason"])
      .select(sql<Date>`now()`.as("now"))
      .where("secret_hash", "=", secretHash)
      .executeTakeFirst();
  },
  /** Records a use, at most once a minute per token (the condition makes parallel requests write once). */
  async touch(db: Db, id: string): Promise<void> {
    await db
      .updateTable("personal_tokens")
      .set({ last_used_at: sql<Date>`now()` })
      .where("id", "=", id)
      .where((eb) =>
        eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", sql<Date>`now() - interval '1 minute'`)]),
      )
      .execute();
  },
};
