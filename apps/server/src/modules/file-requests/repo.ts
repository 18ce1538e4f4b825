import type { Selectable, Updateable } from "kysely";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { FileRequestsTable } from "../../db/types-requests.ts";

export type FileRequestRow = Selectable<FileRequestsTable>;
/** A request as its token opens it: with its board's and workspace's names. */
export type RequestLinkRow = FileRequestRow & { board_name: string; workspace_name: string };

/** File requests and the files sent through them (migration 20261126-0001). */
export const fileRequestsRepo = {
  async create(
    db: Db,
    row: Omit<
      FileRequestRow,
      | "id"
      | "created_at"
      | "updated_at"
      | "files_received"
      | "bytes_received"
      | "last_upload_at"
      | "is_active"
      | "password_version"
    >,
  ) {
    return db.insertInto("file_requests").values(row).returningAll().executeTakeFirstOrThrow();
  },
  async forBoard(db: Db, workspaceId: string, boardId: string) {
    return db
      .selectFrom("file_requests")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("board_id", "=", boardId)
      .orderBy("created_at", "desc")
      .execute();
  },
  /** Every request of the workspace with its board's name and its maker's (Settings → Share links). */
  async listAll(db: Db, workspaceId: string) {
    return db
      .selectFrom("file_requests as r")
      .innerJoin("boards as b", "b.id", "r.board_id")
      .leftJoin("users as u", "u.id", "r.created_by")
      .selectAll("r")
      .select([
        "b.name as board_name",
        sql<string | null>`nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')`.as(
          "created_by_name",
        ),
      ])
      .where("r.workspace_id", "=", workspaceId)
      .where("b.deleted_at", "is", null)
      .orderBy("r.created_at", "desc")
      .execute();
  },
  async byId(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom("file_requests")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst();
  },
  /** The request with its board and workspace names; a request whose board is in the trash is no request. */
  async byToken(db: Db, token: string): Promise<RequestLinkRow | undefined> {
    return (
      db
        .selectFrom("file_requests as r")
        .innerJoin("boards as b", "b.id", "r.board_id")
        .innerJoin("workspaces as w", "w.id", "r.workspace_id")
        .selectAll("r")
        .select(["b.name as board_name", "w.name as workspace_name"])
        .where("r.token", "=", token)
        .where("b.deleted_at", "is", null)
        // A deleted workspace's request opens nothing (as its share links): 404, no names.
        .where("w.deleted_at", "is", null)
        .executeTakeFirst()
    );
  },
  async update(db: Db, id: string, patch: Updateable<FileRequestsTable> & { bumpPassword?: boolean }) {
    const { bumpPassword, ...set } = patch;
    return db
      .updateTable("file_requests")
      .set({
        ...set,
        updated_at: new Date(),
        ...(bumpPassword ? { password_version: sql<number>`password_version + 1` } : {}),
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async remove(db: Db, id: string) {
    await db.deleteFrom("file_requests").where("id", "=", id).execute();
  },
  /**
   * Takes one file of the request's cap (and counts its bytes), in the caller's transaction: the row
   * lock orders concurrent visitors, so the cap is never passed. False when the request is full.
   */
  async reserve(db: Db, id: string, bytes: number): Promise<boolean> {
    const r = await db
      .updateTable("file_requests")
      .set({
        files_received: sql<number>`files_received + 1`,
        bytes_received: sql<number>`bytes_received + ${bytes}`,
        last_upload_at: new Date(),
      })
      .where("id", "=", id)
      .where(sql<boolean>`files_received < max_files`)
      .returning("id")
      .executeTakeFirst();
    return !!r;
  },
  async record(db: Db, row: { asset_id: string; request_id: string; visit_id: string; uploader_name: string | null }) {
    await db.insertInto("file_request_uploads").values(row).execute();
  },
  /** What one visit sent (and is still there): the only files a visitor can list. */
  async visitUploads(db: Db, requestId: string, visitId: string) {
    return db
      .selectFrom("file_request_uploads as f")
      .innerJoin("assets as a", "a.id", "f.asset_id")
      .select(["a.id as asset_id", "a.name", "a.size", "a.status", "f.created_at"])
      .where("f.request_id", "=", requestId)
      .where("f.visit_id", "=", visitId)
      .where("a.deleted_at", "is", null)
      .orderBy("f.created_at", "asc")
      .execute();
  },
  /** What came through a request (still there), newest first, with the names visitors gave. */
  async received(db: Db, requestId: string, limit = 200) {
    return db
      .selectFrom("file_request_uploads as f")
      .innerJoin("assets as a", "a.id", "f.asset_id")
      .select(["a.id as asset_id", "a.name", "a.size", "a.status", "f.uploader_name", "f.created_at"])
      .where("f.request_id", "=", requestId)
      .where("a.deleted_at", "is", null)
      .orderBy("f.created_at", "desc")
      .limit(limit)
      .execute();
  },
  /** The upload's asset, if this request's visit sent it. */
  async visitOwnsUpload(db: Db, requestId: string, visitId: string, uploadId: string): Promise<boolean> {
    const r = await db
      .selectFrom("uploads as u")
      .innerJoin("file_request_uploads as f", "f.asset_id", "u.asset_id")
      .select("u.id")
      .where("u.id", "=", uploadId)
      .where("f.request_id", "=", requestId)
      .where("f.visit_id", "=", visitId)
      .executeTakeFirst();
    return !!r;
  },
  /** The request an asset was sent through, if any (its part URLs answer only while it is open). */
  async ofAsset(db: Db, assetId: string) {
    return db
      .selectFrom("file_request_uploads as f")
      .innerJoin("file_requests as r", "r.id", "f.request_id")
      .select(["r.id", "r.is_active", "r.expires_at"])
      .where("f.asset_id", "=", assetId)
      .executeTakeFirst();
  },
};
