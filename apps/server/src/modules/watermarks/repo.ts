import type { Watermark } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

/** The watermarked renditions' registry (migration 20261207-3303): all its SQL. */
export const watermarksRepo = {
  /** A link's watermark, what `{link}` names (the shared asset's or board's name) and its workspace. */
  async link(db: Db, linkId: string) {
    const r = await sql<{
      id: string;
      workspace_id: string;
      watermark: Watermark | null;
      watermark_hash: string | null;
      title: string;
    }>`
      SELECT l.id, l.workspace_id, l.watermark, l.watermark_hash,
        coalesce(CASE WHEN l.content_type = 'asset' THEN (SELECT name FROM assets WHERE id = l.object_id)
             ELSE (SELECT name FROM boards WHERE id = l.object_id) END, '') AS title
      FROM share_links l WHERE l.id = ${linkId}`.execute(db);
    return r.rows[0];
  },
  /**
   * Runs `fn` holding a session advisory lock named by `key` on a connection of its own: two visitors
   * asking for the same rendition at once make it once (the second finds it made).
   */
  async withLock<T>(db: Db, key: string, fn: () => Promise<T>): Promise<T> {
    return db.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(hashtextextended(${key}, 33))`.execute(conn);
      try {
        return await fn();
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtextextended(${key}, 33))`.execute(conn);
      }
    });
  },
  async get(db: Db, key: string) {
    return db.selectFrom("watermark_renditions").selectAll().where("key", "=", key).executeTakeFirst();
  },
  /** How many renditions a link has under its current settings (the bound on per-visitor copies). */
  async count(db: Db, linkId: string, hash: string): Promise<number> {
    const r = await db
      .selectFrom("watermark_renditions")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("link_id", "=", linkId)
      .where("hash", "=", hash)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  async record(db: Db, row: { key: string; link_id: string; hash: string; status: "preparing" | "ready" }) {
    await db
      .insertInto("watermark_renditions")
      .values(row)
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({ status: row.status, progress: 0, error: null, updated_at: new Date() }),
      )
      .execute();
  },
  /** Claims a video's rendition for a job: true for the caller that inserted it (or retries a failed one). */
  async claimVideo(db: Db, row: { key: string; link_id: string; hash: string }): Promise<boolean> {
    const r = await sql<{ key: string }>`
      INSERT INTO watermark_renditions (key, link_id, hash, status) VALUES (${row.key}, ${row.link_id}, ${row.hash}, 'preparing')
      ON CONFLICT (key) DO UPDATE SET status = 'preparing', progress = 0, error = NULL, updated_at = now()
        WHERE watermark_renditions.status = 'failed'
      RETURNING key`.execute(db);
    return r.rows.length > 0;
  },
  async progress(db: Db, key: string, progress: number) {
    await db
      .updateTable("watermark_renditions")
      .set({ progress, updated_at: new Date() })
      .where("key", "=", key)
      .where("status", "=", "preparing")
      .execute();
  },
  async finish(db: Db, key: string, result: { status: "ready" | "failed"; error?: string }) {
    await db
      .updateTable("watermark_renditions")
      .set({ status: result.status, progress: result.status === "ready" ? 100 : 0, error: result.error ?? null })
      .where("key", "=", key)
      .execute();
  },
  /** Renditions made under settings a link no longer has (or of a link deleted since). */
  async stale(db: Db, limit: number) {
    const r = await sql<{ key: string }>`
      SELECT r.key FROM watermark_renditions r LEFT JOIN share_links l ON l.id = r.link_id
      WHERE l.id IS NULL OR l.watermark_hash IS DISTINCT FROM r.hash
      LIMIT ${limit}`.execute(db);
    return r.rows.map((x) => x.key);
  },
  async remove(db: Db, keys: string[]) {
    if (keys.length) await db.deleteFrom("watermark_renditions").where("key", "in", keys).execute();
  },
};
