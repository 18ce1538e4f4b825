import type { ShareActivityKind } from "@hangar/contract";
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
  async byId(db: Db, workspaceId: string, id: string) {
    return (await db
      .selectFrom("share_links")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst()) as ShareLinkRow | undefined;
  },
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
      show_versions: boolean;
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
    const { bumpPassword, watermark, ...rest } = patch;
    return (await db
      .updateTable("share_links")
      .set({
        ...rest,
        ...(watermark !== undefined ? { watermark: watermark === null ? null : JSON.stringify(watermark) } : {}),
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
  async byToken(db: Db, token: string) {
    return (await db
      .selectFrom("share_links as l")
      .innerJoin("workspaces as w", "w.id", "l.workspace_id")
      .selectAll("l")
      .where("l.token", "=", token)
      .where("w.deleted_at", "is", null)
      .executeTakeFirst()) as ShareLinkRow | undefined;
  },
  async workspaceName(db: Db, workspaceId: string): Promise<string> {
    const r = await db.selectFrom("workspaces").select("name").where("id", "=", workspaceId).executeTakeFirst();
    return r?.name ?? "";
  },
  /** Counts one use of a link (one upsert; never in the way of the answer when it fails). */
  async bump(db: Db, linkId: string, kind: ShareActivityKind): Promise<void> {
    await sql`INSERT INTO share_link_activity (link_id, kind, count, last_at) VALUES (${linkId}, ${kind}, 1, now())
      ON CONFLICT (link_id, kind) DO UPDATE SET count = share_link_activity.count + 1, last_at = now()`.execute(db);
  },
  async activity(db: Db, linkIds: string[]) {
    if (linkIds.length === 0) return [];
    return db
      .selectFrom("share_link_activity")
      .select(["link_id", "kind", "count", "last_at"])
      .where("link_id", "in", linkIds)
      .orderBy("kind")
      .execute();
  },
  /** Every link of the workspace with the names of what it shares (newest first). */
  async listAll(db: Db, workspaceId: string) {
    const r = await sql<
      ShareLinkRow & { content_name: string | null; board_name: string | null; created_by_name: string | null }
    >`
      SELECT l.*,
        CASE WHEN l.content_type = 'asset' THEN (SELECT name FROM assets WHERE id = l.object_id)
             ELSE (SELECT name FROM boards WHERE id = l.object_id) END AS content_name,
        (SELECT name FROM boards WHERE id = l.board_id) AS board_name,
        (SELECT nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')
           FROM users u WHERE u.id = l.created_by) AS created_by_name
      FROM share_links l WHERE l.workspace_id = ${workspaceId}
      ORDER BY l.created_at DESC`.execute(db);
    return r.rows;
  },
  /**
   * A board of the shared subtree rooted at `rootId`: its name, the path down from the root (root
   * first, the board excluded) and its live children; undefined when it is not inside the subtree.
   */
  async subtreeBoard(db: Db, workspaceId: string, rootId: string, boardId: string) {
    const r = await sql<{ id: string; name: string; depth: number }>`
      WITH RECURSIVE up AS (
        SELECT id, name, parent_id, 0 AS depth FROM boards
        WHERE id = ${boardId} AND workspace_id = ${workspaceId} AND deleted_at IS NULL
        UNION ALL
        SELECT p.id, p.name, p.parent_id, up.depth + 1 FROM boards p JOIN up ON p.id = up.parent_id
        WHERE up.id <> ${rootId} AND p.deleted_at IS NULL
      )
      SELECT id, name, depth FROM up ORDER BY depth DESC`.execute(db);
    const chain = r.rows;
    if (chain.length === 0 || chain[0]!.id !== rootId) return undefined;
    const children = await sql<{ id: string; name: string; child_count: number }>`
      SELECT b.id, b.name,
        (SELECT count(*)::int FROM boards c WHERE c.parent_id = b.id AND c.deleted_at IS NULL) AS child_count
      FROM boards b WHERE b.parent_id = ${boardId} AND b.deleted_at IS NULL
      ORDER BY b.position, b.name`.execute(db);
    const self = chain[chain.length - 1]!;
    return {
      id: self.id,
      name: self.name,
      path: chain.slice(0, -1).map(({ id, name }) => ({ id, name })),
      children: children.rows,
    };
  },
};
