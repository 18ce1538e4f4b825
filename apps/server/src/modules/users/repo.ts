import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { NewUser, UserRow, UserUpdate } from "../../db/types.ts";

type Conn = Db;

export const usersRepo = {
  async count(db: Conn): Promise<number> {
    const r = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  findById(db: Conn, id: string): Promise<UserRow | undefined> {
    return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  },
  findByEmail(db: Conn, email: string): Promise<UserRow | undefined> {
    return db.selectFrom("users").selectAll().where(sql`lower(email)`, "=", email.toLowerCase()).executeTakeFirst();
  },
  /** Inserts unless the e-mail is taken; answers undefined when it was. */
  insert(db: Conn, user: NewUser): Promise<UserRow | undefined> {
    return db
      .insertInto("users")
      .values(user)
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returningAll()
      .executeTakeFirst();
  },
  update(db: Conn, id: string, patch: UserUpdate): Promise<UserRow | undefined> {
    return db
      .updateTable("users")
      .set({ ...patch, updated_at: new Date() })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
  },
  async putAvatar(db: Conn, userId: string, image: Buffer, mime: string): Promise<void> {
    await db
      .insertInto("user_avatars")
      .values({ user_id: userId, image, mime_type: mime })
      .onConflict((oc) => oc.column("user_id").doUpdateSet({ image, mime_type: mime, updated_at: new Date() }))
      .execute();
  },
  getAvatar(db: Conn, userId: string) {
    return db
      .selectFrom("user_avatars")
      .select(["image", "mime_type", "updated_at"])
      .where("user_id", "=", userId)
      .executeTakeFirst();
  },
  async deleteAvatar(db: Conn, userId: string): Promise<void> {
    await db.deleteFrom("user_avatars").where("user_id", "=", userId).execute();
  },
};
