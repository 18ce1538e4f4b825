import { type Insertable, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { UploadsTable } from "../../db/types.ts";

export const uploadsRepo = {
  async insert(db: Db, upload: Insertable<UploadsTable>) {
    await db.insertInto("uploads").values(upload).execute();
  },
  get(db: Db, uploadId: string) {
    return db.selectFrom("uploads").selectAll().where("id", "=", uploadId).executeTakeFirst();
  },
  /** The upload, locked until the transaction ends: completing it waits (complete() updates this row). */
  lock(tx: Db, uploadId: string) {
    return tx.selectFrom("uploads").selectAll().where("id", "=", uploadId).forUpdate().executeTakeFirst();
  },
  async delete(tx: Db, uploadId: string) {
    await tx.deleteFrom("uploads").where("id", "=", uploadId).execute();
  },
  async putPart(db: Db, uploadId: string, partNumber: number, size: number, etag: string, sha256: string) {
    await db
      .insertInto("upload_parts")
      .values({ upload_id: uploadId, part_number: partNumber, size, etag, sha256 })
      .onConflict((oc) =>
        oc.columns(["upload_id", "part_number"]).doUpdateSet({ size, etag, sha256, updated_at: new Date() }),
      )
      .execute();
  },
  /** Forgets a part before its bytes are rewritten, so a failed re-send can never pass for the old one. */
  async forgetPart(db: Db, uploadId: string, partNumber: number) {
    await db
      .deleteFrom("upload_parts")
      .where("upload_id", "=", uploadId)
      .where("part_number", "=", partNumber)
      .execute();
  },
  parts(db: Db, uploadId: string) {
    return db.selectFrom("upload_parts").selectAll().where("upload_id", "=", uploadId).orderBy("part_number").execute();
  },
  /** Marks the upload complete; false when another call already did. */
  async complete(db: Db, uploadId: string): Promise<boolean> {
    const done = await db
      .updateTable("uploads")
      .set({ completed_at: new Date() })
      .where("id", "=", uploadId)
      .where("completed_at", "is", null)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  },
  /** Uploads never completed, older than the cutoff, with their version (an asset's first, or a newer one) still waiting for bytes. */
  abandoned(db: Db, cutoff: Date, limit = 500) {
    return db
      .selectFrom("uploads as u")
      .innerJoin("asset_versions as v", (j) => j.on(sql<boolean>`v.id = coalesce(u.version_id, u.asset_id)`))
      .select([
        "u.id",
        "u.asset_id",
        "u.version_id",
        "u.key",
        "u.size",
        "u.part_size",
        "u.part_count",
        "u.kind",
        "u.s3_upload_id",
        "v.directory",
      ])
      .where("u.completed_at", "is", null)
      .where("u.created_at", "<", cutoff)
      .where("v.status", "=", "uploading")
      .limit(limit)
      .execute();
  },
  /** Direct uploads not completed yet, made between the two times (oldest first). */
  pendingDirect(db: Db, madeAfter: Date, madeBefore: Date, limit = 200) {
    return db
      .selectFrom("uploads")
      .select("id")
      .where("kind", "=", "direct")
      .where("completed_at", "is", null)
      .where("created_at", ">", madeAfter)
      .where("created_at", "<", madeBefore)
      .orderBy("created_at")
      .limit(limit)
      .execute();
  },
};
