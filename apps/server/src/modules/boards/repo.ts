import type { SmartBoardFilter } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

export interface BoardRow {
  id: string;
  name: string;
  parent_id: string | null;
  position: number;
  child_count: number;
  kind: "normal" | "smart";
  filter: SmartBoardFilter | null;
}

/** Recursive CTE of a live subtree, the board itself included (one query, never one per level). */
const subtreeIds = (workspaceId: string, boardId: string) => sql`
  WITH RECURSIVE sub AS (
    SELECT id FROM boards WHERE id = ${boardId} AND workspace_id = ${workspaceId} AND deleted_at IS NULL
    UNION ALL
    SELECT b.id FROM boards b JOIN sub ON b.parent_id = sub.id WHERE b.deleted_at IS NULL
  )`;

/** `abilities`: the caller's board abilities as JSON text, the same for every board of the tree. */
export function treeJsonSql(workspaceId: string, parentId: string | null, abilities: string) {
  const start = parentId === null ? sql`parent_id IS NULL` : sql`parent_id = ${parentId}`;
  // path: big-endian 4-byte positions, so a plain bytea (memcmp) sort is the pre-order walk.
  return sql`
    WITH RECURSIVE t AS (
      SELECT id, name, parent_id, position, kind, filter, 1 AS depth, int4send(position) AS path
      FROM boards WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL AND ${start}
      UNION ALL
      SELECT b.id, b.name, b.parent_id, b.position, b.kind, b.filter, t.depth + 1, t.path || int4send(b.position)
      FROM boards b JOIN t ON b.parent_id = t.id WHERE b.deleted_at IS NULL
    ),
    counts AS (SELECT parent_id, count(*)::int AS n FROM t GROUP BY parent_id),
    ordered AS (
      SELECT t.id, t.name, t.parent_id, t.position, t.kind, t.filter, t.depth, t.path, coalesce(c.n, 0) AS child_count,
             lead(t.depth, 1, 1) OVER w AS next_depth, lead(t.id) OVER w IS NULL AS is_last
      FROM t LEFT JOIN counts c ON c.parent_id = t.id
      WINDOW w AS (ORDER BY t.path)
    )
    SELECT '[' || coalesce(string_agg(
      '{"id":"' || id || '","name":' || to_json(name)::text
        || ',"parent_id":' || coalesce('"' || parent_id || '"', 'null')
        || ',"position":' || position || ',"child_count":' || child_count
        || ',"kind":"' || kind || '","filter":' || coalesce(filter::text, 'null')
        || ',"abilities":' || ${abilities}::text || ',"children":['
        || CASE WHEN next_depth > depth THEN ''
                ELSE repeat(']}', depth - next_depth + 1) || CASE WHEN is_last THEN '' ELSE ',' END END,
      '' ORDER BY path), '') || ']' AS json
    FROM ordered`;
}

export const boardsRepo = {
  /**
   * Serialises every change to one sibling group (a parent, or the roots) for the transaction, so
   * concurrent creates, moves and reorders never give two siblings the same position.
   */
  async lockSiblings(db: Db, workspaceId: string, parentId: string | null) {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`boards:${workspaceId}:${parentId ?? "root"}`}, 0))`.execute(
      db,
    );
  },

  get(db: Db, workspaceId: string, boardId: string) {
    return db
      .selectFrom("boards")
      .select(["id", "name", "parent_id", "position", "kind", "filter"])
      .where("id", "=", boardId)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
  },

  /** The live smart boards of a subtree (the root included) with their saved filters (issue 33). */
  async smartInSubtree(db: Db, workspaceId: string, rootId: string): Promise<Array<{ id: string; filter: unknown }>> {
    const r = await sql<{ id: string; filter: unknown }>`
      ${subtreeIds(workspaceId, rootId)}
      SELECT b.id, b.filter FROM boards b JOIN sub ON sub.id = b.id WHERE b.kind = 'smart'`.execute(db);
    return r.rows;
  },

  /** The live smart boards among `boardIds`, with their saved filters. */
  async smartAmong(db: Db, workspaceId: string, boardIds: string[]): Promise<Array<{ id: string; filter: unknown }>> {
    if (boardIds.length === 0) return [];
    const r = await sql<{ id: string; filter: unknown }>`
      SELECT id, filter FROM boards
      WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL AND kind = 'smart' AND id = ANY(${boardIds}::uuid[])`.execute(
      db,
    );
    return r.rows;
  },

  async findChildByName(db: Db, workspaceId: string, parentId: string | null, name: string): Promise<string | null> {
    const r = await db
      .selectFrom("boards")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .where((eb) => (parentId === null ? eb("parent_id", "is", null) : eb("parent_id", "=", parentId)))
      .where("name", "=", name)
      .orderBy("position")
      .executeTakeFirst();
    return r?.id ?? null;
  },

  listChildren(db: Db, workspaceId: string, parentId: string | null): Promise<BoardRow[]> {
    return db
      .selectFrom("boards as b")
      .select([
        "b.id",
        "b.name",
        "b.parent_id",
        "b.position",
        "b.kind",
        "b.filter",
        sql<number>`(SELECT count(*)::int FROM boards c WHERE c.parent_id = b.id AND c.deleted_at IS NULL)`.as(
          "child_count",
        ),
      ])
      .where("b.workspace_id", "=", workspaceId)
      .where("b.deleted_at", "is", null)
      .where((eb) => (parentId === null ? eb("b.parent_id", "is", null) : eb("b.parent_id", "=", parentId)))
      .orderBy("b.position")
      .execute();
  },

  /**
   * The nested tree as JSON text, built by PostgreSQL in one statement: a recursive walk gives each
   * board its depth and position path; in path order (pre-order) each node opens its object and its
   * children array, and closes as many levels as the next node's depth drops. Node never parses or
   * re-serialises the 10,000-node answer.
   */
  async treeJson(db: Db, workspaceId: string, parentId: string | null, abilities: string): Promise<string> {
    const r = await sql<{ json: string }>`${treeJsonSql(workspaceId, parentId, abilities)}`.execute(db);
    return r.rows[0]?.json ?? "[]";
  },

  /** Root first, the board itself excluded. */
  async ancestors(db: Db, workspaceId: string, boardId: string) {
    const r = await sql<{ id: string; name: string; parent_id: string | null; depth: number }>`
      WITH RECURSIVE up AS (
        SELECT p.id, p.name, p.parent_id, 1 AS depth
        FROM boards b JOIN boards p ON p.id = b.parent_id
        WHERE b.id = ${boardId} AND b.workspace_id = ${workspaceId}
        UNION ALL
        SELECT p.id, p.name, p.parent_id, up.depth + 1 FROM boards p JOIN up ON p.id = up.parent_id
      )
      SELECT id, name, parent_id, depth FROM up ORDER BY depth DESC`.execute(db);
    return r.rows.map(({ depth: _d, ...a }) => a);
  },

  /** True when `candidate` is `boardId` or lies under it: moving `boardId` there would make a cycle. */
  async isSelfOrDescendant(db: Db, workspaceId: string, boardId: string, candidate: string): Promise<boolean> {
    const r = await sql<{ hit: boolean }>`
      ${subtreeIds(workspaceId, boardId)}
      SELECT EXISTS (SELECT 1 FROM sub WHERE id = ${candidate}) AS hit`.execute(db);
    return r.rows[0]?.hit ?? false;
  },

  async nextPosition(db: Db, workspaceId: string, parentId: string | null): Promise<number> {
    const r = await db
      .selectFrom("boards")
      .select(sql<number>`coalesce(max(position) + 1, 0)::int`.as("next"))
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .where((eb) => (parentId === null ? eb("parent_id", "is", null) : eb("parent_id", "=", parentId)))
      .executeTakeFirstOrThrow();
    return r.next;
  },

  insert(
    db: Db,
    b: {
      workspaceId: string;
      parentId: string | null;
      name: string;
      position: number;
      userId: string;
      filter?: unknown;
    },
  ) {
    return db
      .insertInto("boards")
      .values({
        workspace_id: b.workspaceId,
        parent_id: b.parentId,
        name: b.name,
        position: b.position,
        created_by: b.userId,
        ...(b.filter !== undefined ? { kind: "smart" as const, filter: JSON.stringify(b.filter) } : {}),
      })
      .returning(["id", "name", "parent_id", "position", "kind", "filter"])
      .executeTakeFirstOrThrow();
  },

  async update(
    db: Db,
    boardId: string,
    patch: { name?: string; parent_id?: string | null; position?: number; filter?: unknown },
  ) {
    const { filter, ...rest } = patch;
    await db
      .updateTable("boards")
      .set({ ...rest, ...(filter !== undefined ? { filter: JSON.stringify(filter) } : {}), updated_at: new Date() })
      .where("id", "=", boardId)
      .execute();
  },

  /** Sets the sibling order in two steps so the unique (parent, position) index holds at every row. */
  async setOrder(db: Db, workspaceId: string, orderedIds: string[]) {
    if (orderedIds.length === 0) return;
    await sql`UPDATE boards SET position = -1 - position WHERE id = ANY(${orderedIds}::uuid[]) AND workspace_id = ${workspaceId}`.execute(
      db,
    );
    await sql`
      UPDATE boards b SET position = o.ord - 1, updated_at = now()
      FROM unnest(${orderedIds}::uuid[]) WITH ORDINALITY AS o(id, ord)
      WHERE b.id = o.id AND b.workspace_id = ${workspaceId}`.execute(db);
  },

  /** The ids of a live subtree, the board itself included. */
  async subtree(db: Db, workspaceId: string, boardId: string): Promise<string[]> {
    const r = await sql<{ id: string }>`${subtreeIds(workspaceId, boardId)} SELECT id FROM sub`.execute(db);
    return r.rows.map((x) => x.id);
  },

  /** Soft-deletes these boards as one batch (the assets that go with them are the assets feature's). */
  async softDelete(db: Db, workspaceId: string, boardIds: string[], userId: string, batch: string) {
    if (boardIds.length === 0) return 0;
    const r = await db
      .updateTable("boards")
      .set({ deleted_at: new Date(), deleted_by: userId, delete_batch: batch })
      .where("workspace_id", "=", workspaceId)
      // One array parameter: a subtree may hold more boards than a statement may have parameters.
      .where(sql<boolean>`id = ANY(${boardIds}::uuid[])`)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },

  /** The boards of a batch whose parent is not in the batch (the tops of what was deleted). */
  async batchTops(db: Db, workspaceId: string, batch: string) {
    const r = await sql<{ id: string; parent_id: string | null; parent_live: boolean }>`
      SELECT b.id, b.parent_id, (p.id IS NOT NULL AND p.deleted_at IS NULL) AS parent_live
      FROM boards b LEFT JOIN boards p ON p.id = b.parent_id
      WHERE b.workspace_id = ${workspaceId} AND b.delete_batch = ${batch} AND b.deleted_at IS NOT NULL
        AND (b.parent_id IS NULL OR p.delete_batch IS DISTINCT FROM ${batch})
      ORDER BY b.position`.execute(db);
    return r.rows;
  },

  async batchOfBoard(db: Db, workspaceId: string, boardId: string): Promise<string | null> {
    const r = await db
      .selectFrom("boards")
      .select("delete_batch")
      .where("id", "=", boardId)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is not", null)
      .executeTakeFirst();
    return r?.delete_batch ?? null;
  },

  async restoreBatch(db: Db, workspaceId: string, batch: string): Promise<number> {
    const boards = await db
      .updateTable("boards")
      .set({ deleted_at: null, deleted_by: null, delete_batch: null })
      .where("workspace_id", "=", workspaceId)
      .where("delete_batch", "=", batch)
      .executeTakeFirst();
    return Number(boards.numUpdatedRows);
  },
};
