import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { ShareLinksTable } from "../../db/types.ts";

export type ShareLinkRow = {
  [K in keyof ShareLinksTable]: ShareLinksTable[K] extends import("kysely").ColumnType<infer S, unknown, unknown>
    ? S
    : ShareLinksTable[K];
};

const NO_BOARD = "00000000-0000-0000-0000-000000000000";

export const sharesRepo = {
  async find(db: Db, workspaceId: string, type: "asset" | "board", objectId: string, boardId: string | null) {
    return (await db
      .selectFrom("share_links")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("content_type", "=", type)
      .where("object_id", "=", objectId)
      .where(sql`coalesce(board_id, ${NO_BOARD}::uuid)`, "=", boardId ?? NO_BOARD)
      .executeTakeFirst()) as ShareLinkRow | undefined;
  },
  /** Creates the link unless another request just did (then answers that one). */
  async create(
    db: Db,
    row: {
      workspace_id: string;
      content_type: "asset" | "board";
      object_id: string;
      board_id: string | null;
      token: string;
      created_by: string;
    },
    flags: {
      allow_commenting: boolean;
      show_comments: boolean;
      show_custom_fields: boolean;
      allow_editing_custom_fields: boolean;
      allow_downloads: boolean;
    },
  ) {
    await db
      .insertInto("share_links")
      .values({ ...row, ...flags })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return (await sharesRepo.find(db, row.workspace_id, row.content_type, row.object_id, row.board_id))!;
  },
  async update(
    db: Db,
    id: string,
    patch: Partial<Omit<ShareLinkRow, "id" | "password_version">> & { bumpPassword?: boolean },
  ) {
    const { bumpPassword, ...rest } = patch;
    return (await db
      .updateTable("share_links")
      .set({
        ...rest,
        updated_at: new Date(),
        ...(bumpPassword ? { password_version: sql`password_version + 1` } : {}),
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow()) as ShareLinkRow;
  },
  async remove(db: Db, id: string) {
    await db.deleteFrom("share_links").where("id", "=", id).execute();
  },
  /** Whether the asset is live and filed in the board (an asset link's context). */
  async assetInBoard(db: Db, workspaceId: string, assetId: string, boardId: string): Promise<boolean> {
    const r = await sql<{ ok: boolean }>`SELECT EXISTS (
        SELECT 1 FROM board_assets ba JOIN assets a ON a.id = ba.asset_id JOIN boards b ON b.id = ba.board_id
        WHERE ba.asset_id = ${assetId} AND ba.board_id = ${boardId} AND a.workspace_id = ${workspaceId}
          AND a.deleted_at IS NULL AND b.deleted_at IS NULL) AS ok`.execute(db);
    return r.rows[0]?.ok ?? false;
  },
  async liveBoard(db: Db, workspaceId: string, boardId: string): Promise<boolean> {
    const r = await sql<{ ok: boolean }>`SELECT EXISTS (SELECT 1 FROM boards
      WHERE id = ${boardId} AND workspace_id = ${workspaceId} AND deleted_at IS NULL) AS ok`.execute(db);
    return r.rows[0]?.ok ?? false;
  },
};
