import type { DrawingShape } from "@hangar/contract";
import type { Insertable } from "kysely";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { CommentsTable, DB } from "../../db/types.ts";

/** A person as comments show them (author, resolver). */
export interface CommentPerson {
  id: string;
  first_name: string;
  last_name: string;
  avatar_updated_at: string | null;
}

/** A comment row with what its answer needs: people, the thread's author, replies and mentions. */
export interface CommentRecord {
  id: string;
  workspace_id: string;
  asset_id: string;
  parent_id: string | null;
  thread_id: string;
  board_id: string | null;
  /** The asset version it was made on, and that version's number. */
  version_id: string;
  version_number: number;
  author_id: string | null;
  author_name: string | null;
  share_link_id: string | null;
  text: string;
  severity: CommentsTable["severity"]["__select__"];
  annotation_type: CommentsTable["annotation_type"]["__select__"];
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
  page: number | null;
  timestamp_s: number | null;
  duration_s: number | null;
  /** A DRAWING's shapes, as written through the contract (answers check them again on the way out). */
  shapes: DrawingShape[] | null;
  resolved_at: Date | null;
  created_at: Date;
  updated_at: Date;
  author: CommentPerson | null;
  resolver: CommentPerson | null;
  thread_author_id: string | null;
  reply_count: number;
  mentions: Array<{ user_id: string; display: string }>;
}

const person = (alias: string) =>
  sql.raw(`CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('id', ${alias}.id, 'first_name',
    ${alias}.first_name, 'last_name', ${alias}.last_name, 'avatar_updated_at', ${alias}.avatar_updated_at) END`);

/** The comment rows matching `where` (on `c`), in thread order, at most `limit`. */
function selectSql(where: RawBuilder<SqlBool>, limit: number) {
  return sql<CommentRecord>`
    SELECT c.id, c.workspace_id, c.asset_id, c.parent_id, c.thread_id, c.board_id, c.version_id,
      cv.number AS version_number, c.author_id, c.author_name,
      c.share_link_id, c.text, c.severity, c.annotation_type, c.x, c.y, c.width, c.height, c.page, c.timestamp_s,
      c.duration_s, c.shapes, c.resolved_at, c.created_at, c.updated_at,
      ${person("u")} AS author, ${person("r")} AS resolver, root.author_id AS thread_author_id,
      CASE WHEN c.parent_id IS NULL
        THEN (SELECT count(*) FROM comments x WHERE x.thread_id = c.id AND x.parent_id IS NOT NULL)::int
        ELSE 0 END AS reply_count,
      coalesce((SELECT json_agg(json_build_object('user_id', mu.id, 'display', trim(mu.first_name || ' ' || mu.last_name))
                  ORDER BY mu.first_name, mu.last_name)
                FROM comment_mentions m JOIN users mu ON mu.id = m.user_id WHERE m.comment_id = c.id), '[]') AS mentions
    FROM comments c
    JOIN comments root ON root.id = c.thread_id
    JOIN asset_versions cv ON cv.id = c.version_id
    LEFT JOIN users u ON u.id = c.author_id
    LEFT JOIN users r ON r.id = c.resolved_by
    WHERE ${where}
    ORDER BY c.created_at, c.id
    LIMIT ${limit}`;
}

/** After `cursor` (a comment id) in (created_at, id) order; true without one. */
const after = (cursor: string | null) =>
  cursor
    ? sql<SqlBool>`(c.created_at, c.id) > (SELECT k.created_at, k.id FROM comments k WHERE k.id = ${cursor})`
    : sql<SqlBool>`true`;

/** `board`: undefined for every comment, null for global ones only, an id for that board's. */
export type BoardScope = string | null | undefined;
const inBoard = (board: BoardScope) =>
  board === undefined
    ? sql<SqlBool>`true`
    : board === null
      ? sql<SqlBool>`c.board_id IS NULL`
      : sql<SqlBool>`c.board_id = ${board}`;

export type NewComment = Insertable<DB["comments"]> & { id: string };

export const commentsRepo = {
  async get(db: Db, workspaceId: string, id: string): Promise<CommentRecord | null> {
    const r = await selectSql(sql`c.id = ${id} AND c.workspace_id = ${workspaceId}`, 1).execute(db);
    return r.rows[0] ?? null;
  },
  /**
   * Top-level comments of an asset, oldest first, a page after `cursor` (limit + 1 read for has-more):
   * of one version (`version`), or of every version (null).
   */
  async topLevel(
    db: Db,
    assetId: string,
    board: BoardScope,
    cursor: string | null,
    limit: number,
    version: string | null = null,
  ) {
    // Every version's: not those of versions in Recently deleted.
    const ofVersion =
      version === null
        ? sql<SqlBool>`NOT EXISTS (SELECT 1 FROM asset_versions dv WHERE dv.id = c.version_id AND dv.deleted_at IS NOT NULL)`
        : sql<SqlBool>`c.version_id = ${version}`;
    const where = sql<SqlBool>`c.asset_id = ${assetId} AND c.parent_id IS NULL AND ${inBoard(board)} AND ${ofVersion} AND ${after(cursor)}`;
    const [rows, count] = await Promise.all([
      selectSql(where, limit + 1).execute(db),
      sql<{ n: number }>`SELECT count(*)::int AS n FROM comments c
        WHERE c.asset_id = ${assetId} AND c.parent_id IS NULL AND ${inBoard(board)} AND ${ofVersion}`.execute(db),
    ]);
    return { rows: rows.rows, count: count.rows[0]?.n ?? 0 };
  },
  /** Every reply of a thread at any depth, flat, oldest first. */
  async replies(db: Db, threadId: string, cursor: string | null, limit: number) {
    const where = sql<SqlBool>`c.thread_id = ${threadId} AND c.parent_id IS NOT NULL AND ${after(cursor)}`;
    const [rows, count] = await Promise.all([
      selectSql(where, limit + 1).execute(db),
      sql<{ n: number }>`SELECT count(*)::int AS n FROM comments c
        WHERE c.thread_id = ${threadId} AND c.parent_id IS NOT NULL`.execute(db),
    ]);
    return { rows: rows.rows, count: count.rows[0]?.n ?? 0 };
  },
  /** Every comment of the assets (threads together, oldest first): for exports. */
  async ofAssets(db: Db, workspaceId: string, assetIds: string[], board: BoardScope) {
    if (assetIds.length === 0) return [];
    const where = sql<SqlBool>`c.workspace_id = ${workspaceId} AND c.asset_id = ANY(${assetIds}::uuid[])
      AND (c.parent_id IS NOT NULL OR ${inBoard(board)})`;
    return (await selectSql(where, 100_000).execute(db)).rows;
  },
  async insert(db: Db, row: NewComment, mentions: string[]): Promise<void> {
    await db.transaction().execute(async (tx) => {
      await tx.insertInto("comments").values(row).execute();
      if (mentions.length)
        await tx
          .insertInto("comment_mentions")
          .values(mentions.map((user_id) => ({ comment_id: row.id, user_id })))
          .execute();
    });
  },
  async updateText(
    db: Db,
    id: string,
    patch: { text: string; severity?: CommentRecord["severity"] },
    mentions: string[] | undefined,
  ): Promise<string[]> {
    return db.transaction().execute(async (tx) => {
      await tx
        .updateTable("comments")
        .set({ ...patch, updated_at: new Date() })
        .where("id", "=", id)
        .execute();
      if (mentions === undefined) return [];
      const before = await tx.selectFrom("comment_mentions").select("user_id").where("comment_id", "=", id).execute();
      await tx.deleteFrom("comment_mentions").where("comment_id", "=", id).execute();
      if (mentions.length)
        // Two edits at once both delete and both insert: the second insert keeps what the first wrote.
        await tx
          .insertInto("comment_mentions")
          .values(mentions.map((user_id) => ({ comment_id: id, user_id })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      const had = new Set(before.map((m) => m.user_id));
      return mentions.filter((m) => !had.has(m));
    });
  },
  async setResolved(db: Db, id: string, by: string | null): Promise<void> {
    await db
      .updateTable("comments")
      .set({ resolved_at: by ? new Date() : null, resolved_by: by })
      .where("id", "=", id)
      .execute();
  },
  /**
   * Deletes a comment. A top-level comment takes its whole thread; a reply's own replies move up to its
   * parent (replies show flat, so nothing else changes for readers). Answers how many rows went.
   */
  async remove(db: Db, c: { id: string; parent_id: string | null }): Promise<number> {
    return db.transaction().execute(async (tx) => {
      if (c.parent_id === null) {
        const r = await tx.deleteFrom("comments").where("thread_id", "=", c.id).executeTakeFirst();
        return Number(r.numDeletedRows);
      }
      await tx.updateTable("comments").set({ parent_id: c.parent_id }).where("parent_id", "=", c.id).execute();
      const r = await tx.deleteFrom("comments").where("id", "=", c.id).executeTakeFirst();
      return Number(r.numDeletedRows);
    });
  },
  /** The subset of `userIds` who are members of the workspace. */
  async membersAmong(db: Db, workspaceId: string, userIds: string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await db
      .selectFrom("memberships")
      .select("user_id")
      .where("workspace_id", "=", workspaceId)
      .where("user_id", "in", userIds)
      .execute();
    return rows.map((r) => r.user_id);
  },
  /** The asset a comment is about, if live in the workspace: name, pages, and the board filing. */
  async assetFacts(db: Db, workspaceId: string, assetId: string) {
    return db
      .selectFrom("assets")
      .select(["id", "name", "page_count", "file_type", "directory", "renditions", "width", "height", "duration"])
      .select(sql<string>`coalesce(current_version_id, id)`.as("current_version_id"))
      .where("id", "=", assetId)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
  },
  /** Several assets' facts, in name order (exports). */
  async assetsFacts(db: Db, workspaceId: string, assetIds: string[]) {
    if (assetIds.length === 0) return [];
    return db
      .selectFrom("assets")
      .select(["id", "name", "file_type"])
      .where("id", "in", assetIds)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .orderBy("name")
      .execute();
  },
  /** A live board's name, or null. */
  async boardName(db: Db, workspaceId: string, boardId: string): Promise<string | null> {
    const r = await db
      .selectFrom("boards")
      .select("name")
      .where("id", "=", boardId)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return r?.name ?? null;
  },
  /** Whether a board is live in the workspace. */
  async liveBoard(db: Db, workspaceId: string, boardId: string): Promise<boolean> {
    const r = await db
      .selectFrom("boards")
      .select("id")
      .where("id", "=", boardId)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return !!r;
  },
  /** The live assets filed directly in a board. */
  async boardAssetIds(db: Db, workspaceId: string, boardId: string): Promise<string[]> {
    const rows = await db
      .selectFrom("board_assets as ba")
      .innerJoin("assets as a", "a.id", "ba.asset_id")
      .select("a.id")
      .where("ba.board_id", "=", boardId)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .orderBy("a.name")
      .execute();
    return rows.map((r) => r.id);
  },
  /** Versions' numbers, types and media (a report draws each comment on the version it was made on). */
  async versionsMedia(db: Db, versionIds: string[]) {
    if (versionIds.length === 0) return [];
    return db
      .selectFrom("asset_versions")
      .select(["id", "asset_id", "number", "file_type", "directory", "renditions"])
      .where("id", "in", versionIds)
      .execute();
  },
  /** A live (not deleted) version of the asset: what an annotation on it is checked against. */
  versionFacts(db: Db, assetId: string, versionId: string) {
    return db
      .selectFrom("asset_versions")
      .select(["id", "page_count", "file_type", "duration"])
      .where("id", "=", versionId)
      .where("asset_id", "=", assetId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
  },
  /** Comments follow their versions to another asset (versions stacked onto it, or detached into it). */
  async follow(db: Db, to: string, from: { assetIds: string[] } | { versionId: string }) {
    if ("assetIds" in from && from.assetIds.length === 0) return;
    let q = db.updateTable("comments").set({ asset_id: to });
    q = "assetIds" in from ? q.where("asset_id", "in", from.assetIds) : q.where("version_id", "=", from.versionId);
    await q.execute();
  },
  /** Users by id (for mention e-mails). */
  async users(db: Db, ids: string[]) {
    if (ids.length === 0) return [];
    return db.selectFrom("users").select(["id", "email", "first_name", "last_name"]).where("id", "in", ids).execute();
  },
};
