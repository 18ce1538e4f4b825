import { type SqlBool, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { Group } from "./groups.ts";

/** Near-duplicate pairs read at most by a rebuild (a workspace of a million near-identical pictures stays bounded). */
export const NEAR_PAIRS_LIMIT = 50_000;

/**
 * A listed group: not dismissed (a dismissal holding every member), and a near group only when it is
 * not an exact group's very members (byte-identical assets are listed once, as exact). A near group's
 * members all have the bytes `twin_sha256` and are live with them until the next rebuild (a paired
 * asset that goes or gets another version is a change), so its twin is the exact group of that
 * checksum with as many members: one lookup by the exact groups' unique index, for such groups only.
 */
const VISIBLE = sql<SqlBool>`NOT EXISTS (SELECT 1 FROM duplicate_dismissals d
      WHERE d.workspace_id = g.workspace_id AND d.asset_ids @> g.asset_ids)
    AND (g.twin_sha256 IS NULL OR NOT EXISTS (SELECT 1 FROM duplicate_groups e
      WHERE e.workspace_id = g.workspace_id AND e.kind = 'exact' AND e.sha256 = g.twin_sha256 AND e.count = g.count))`;

/** A near group as rebuilt: its members' checksum when they all share one. */
export type NearGroup = Group & { twin_sha256: string | null };

/**
 * The duplicates page's groups (migration 20261206-3205): exact groups kept by triggers, near groups
 * rebuilt from asset_hash_pairs when duplicate_near_changes says something changed. Paged by the
 * duplicate_groups_order index in the page's order.
 */
export const duplicatesRepo = {
  /** Whether anything the near groups are built from changed since they were built. */
  async nearChanged(db: Db, workspaceId: string): Promise<boolean> {
    const r = await sql<{ changed: boolean }>`SELECT EXISTS (
      SELECT 1 FROM duplicate_near_changes WHERE workspace_id = ${workspaceId}) AS changed`.execute(db);
    return r.rows[0]?.changed ?? false;
  },

  /**
   * Takes the changes committed so far (inside the rebuild's transaction: rolled back with it, and a
   * change committed meanwhile stays for the next rebuild). Answers how many; 0 when another rebuild
   * took them first (this one waited for it to commit).
   */
  async takeNearChanges(tx: Db, workspaceId: string): Promise<number> {
    const r = await sql`DELETE FROM duplicate_near_changes WHERE workspace_id = ${workspaceId}`.execute(tx);
    return Number(r.numAffectedRows ?? 0);
  },

  /**
   * Pairs of live assets whose current versions' main pictures are within `maxDistance` (kept when
   * hashed: an index range, never a comparison of the workspace's hashes), nearest first, with the
   * assets' sizes and checksums.
   */
  async nearPairs(db: Db, workspaceId: string, maxDistance: number) {
    const r = await sql<{
      a: string;
      b: string;
      d: number;
      size_a: string;
      size_b: string;
      sha_a: string | null;
      sha_b: string | null;
    }>`
      SELECT x.id AS a, y.id AS b, p.distance::integer AS d, x.size AS size_a, y.size AS size_b,
        x.sha256 AS sha_a, y.sha256 AS sha_b
      FROM asset_hash_pairs p
      JOIN asset_versions va ON va.id = p.version_a
      JOIN assets x ON x.id = va.asset_id AND coalesce(x.current_version_id, x.id) = va.id
      JOIN asset_versions vb ON vb.id = p.version_b
      JOIN assets y ON y.id = vb.asset_id AND coalesce(y.current_version_id, y.id) = vb.id
      WHERE p.workspace_id = ${workspaceId} AND p.distance <= ${maxDistance}
        AND x.deleted_at IS NULL AND NOT x.is_temp AND y.deleted_at IS NULL AND NOT y.is_temp AND x.id <> y.id
      ORDER BY p.distance LIMIT ${NEAR_PAIRS_LIMIT}`.execute(db);
    return r.rows.map((p) => ({ ...p, size_a: Number(p.size_a), size_b: Number(p.size_b) }));
  },

  /** The workspace's near groups, replaced by `groups`. */
  async replaceNear(tx: Db, workspaceId: string, groups: NearGroup[]) {
    await sql`DELETE FROM duplicate_groups WHERE workspace_id = ${workspaceId} AND kind = 'near'`.execute(tx);
    const CHUNK = 5_000;
    for (let i = 0; i < groups.length; i += CHUNK) {
      const rows = groups.slice(i, i + CHUNK).map((g) => ({
        asset_ids: g.asset_ids,
        count: g.count,
        size: g.size,
        reclaimable: g.reclaimable,
        distance: g.distance,
        twin_sha256: g.twin_sha256,
      }));
      await sql`
        INSERT INTO duplicate_groups (workspace_id, kind, sha256, asset_ids, first_id, count, size, reclaimable, distance,
          twin_sha256)
        SELECT ${workspaceId}, 'near', NULL, x.asset_ids, x.asset_ids[1], x.count, x.size, x.reclaimable, x.distance,
          x.twin_sha256
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS x(asset_ids uuid[], count integer, size bigint, reclaimable bigint, distance smallint, twin_sha256 text)`.execute(
        tx,
      );
    }
  },

  /** A page of the listed groups: largest first, then the space they take, exact first, the first id. */
  async page(db: Db, workspaceId: string, limit: number, offset: number): Promise<Group[]> {
    const r = await sql<{
      kind: Group["kind"];
      asset_ids: string[];
      count: number;
      size: string;
      reclaimable: string;
      distance: number;
    }>`
      SELECT g.kind, g.asset_ids, g.count, g.size, g.reclaimable, g.distance FROM duplicate_groups g
      WHERE g.workspace_id = ${workspaceId} AND ${VISIBLE}
      ORDER BY g.count DESC, g.size DESC, g.kind, g.first_id
      LIMIT ${limit} OFFSET ${offset}`.execute(db);
    return r.rows.map((g) => ({ ...g, size: Number(g.size), reclaimable: Number(g.reclaimable) }));
  },

  /** How many groups are listed. */
  async count(db: Db, workspaceId: string): Promise<number> {
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM duplicate_groups g
      WHERE g.workspace_id = ${workspaceId} AND ${VISIBLE}`.execute(db);
    return r.rows[0]?.n ?? 0;
  },
};
