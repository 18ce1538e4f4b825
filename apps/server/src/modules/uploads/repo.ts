import type { Insertable } from "kysely";
import type { Db } from "../../db/db.ts";
import type { UploadsTable } from "../../db/types.ts";

export const uploadsRepo = {
  async createAssetWithUpload(
    db: Db,
    a: {
      workspaceId: string;
      name: string;
      extension: string;
      contentType: string;
      size: number;
      boardId: string | null;
      userId: string;
      assetId: string;
      directory: string;
    },
    upload: Omit<Insertable<UploadsTable>, "asset_id" | "workspace_id">,
  ): Promise<{ uploadId: string }> {
    return db.transaction().execute(async (tx) => {
      await tx
        .insertInto("assets")
        .values({
          id: a.assetId,
          workspace_id: a.workspaceId,
          name: a.name,
          file_extension: a.extension,
          mime_type: a.contentType,
          size: a.size,
          upload_board_id: a.boardId,
          uploaded_by: a.userId,
          directory: a.directory,
          storage_key: upload.key,
        })
        .execute();
      if (a.boardId) {
        await tx
          .insertInto("board_assets")
          .values({ board_id: a.boardId, asset_id: a.assetId, added_by: a.userId })
          .execute();
      }
      const u = await tx
        .insertInto("uploads")
        .values({ ...upload, asset_id: a.assetId, workspace_id: a.workspaceId })
        .returning("id")
        .executeTakeFirstOrThrow();
      return { uploadId: u.id };
    });
  },
  get(db: Db, uploadId: string) {
    return db.selectFrom("uploads").selectAll().where("id", "=", uploadId).executeTakeFirst();
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
  /** Marks the upload complete and the asset `processing`; false when another call already did. */
  async complete(db: Db, uploadId: string, assetId: string, size: number, sha256: string): Promise<boolean> {
    return db.transaction().execute(async (tx) => {
      const done = await tx
        .updateTable("uploads")
        .set({ completed_at: new Date() })
        .where("id", "=", uploadId)
        .where("completed_at", "is", null)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return false;
      await tx
        .updateTable("assets")
        .set({ status: "processing", size, sha256, updated_at: new Date() })
        .where("id", "=", assetId)
        .execute();
      return true;
    });
  },
  assetChecksum(db: Db, assetId: string) {
    return db.selectFrom("assets").select(["size", "sha256", "status"]).where("id", "=", assetId).executeTakeFirst();
  },
  /** Uploads never completed, older than the cutoff, with their asset still waiting for bytes. */
  abandoned(db: Db, cutoff: Date, limit = 500) {
    return db
      .selectFrom("uploads as u")
      .innerJoin("assets as a", "a.id", "u.asset_id")
      .select([
        "u.id",
        "u.asset_id",
        "u.key",
        "u.size",
        "u.part_size",
        "u.part_count",
        "u.kind",
        "u.s3_upload_id",
        "a.directory",
      ])
      .where("u.completed_at", "is", null)
      .where("u.created_at", "<", cutoff)
      .where("a.status", "=", "uploading")
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
  async deleteAsset(db: Db, assetId: string) {
    await db.deleteFrom("assets").where("id", "=", assetId).where("status", "=", "uploading").execute();
  },
  /** A finished folder-upload file: the asset row, straight to `processing`. */
  async insertProcessedAsset(
    db: Db,
    a: {
      id: string;
      workspaceId: string;
      name: string;
      extension: string;
      contentType: string;
      size: number;
      sha256: string;
      boardId: string | null;
      userId: string;
      directory: string;
      key: string;
    },
  ) {
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto("assets")
        .values({
          id: a.id,
          workspace_id: a.workspaceId,
          name: a.name,
          file_extension: a.extension,
          mime_type: a.contentType,
          size: a.size,
          sha256: a.sha256,
          status: "processing",
          upload_board_id: a.boardId,
          uploaded_by: a.userId,
          directory: a.directory,
          storage_key: a.key,
        })
        .execute();
      if (a.boardId)
        await tx
          .insertInto("board_assets")
          .values({ board_id: a.boardId, asset_id: a.id, added_by: a.userId })
          .execute();
    });
  },
};
