import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

/** Pairs kept per saved picture (its nearest). */
export const PAIRS_PER_VERSION = 1_000;

const LIVE = sql`a.deleted_at IS NULL AND NOT a.is_temp`;

/** Perceptual hashes and duplicates (issue 32): every statement over asset_hashes and the duplicate tables. */
export const similarRepo = {
  /**
   * A version's hashes, replacing any earlier ones (the pipeline runs twice safely), and its main
   * picture's pairs within `pairDistance` (at most PAIRS_PER_VERSION, nearest first). One workspace's
   * hashes are saved one at a time (an advisory lock), so two pictures saved together still see each
   * other.
   */
  async saveHashes(db: Db, workspaceId: string, versionId: string, hashes: bigint[], pairDistance: number) {
    await db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`asset_hashes:${workspaceId}`}))`.execute(tx);
      await tx.deleteFrom("asset_hashes").where("version_id", "=", versionId).execute();
      await tx
        .deleteFrom("asset_hash_pairs")
        .where((eb) => eb.or([eb("version_a", "=", versionId), eb("version_b", "=", versionId)]))
        .execute();
      if (!hashes.length) return;
      await tx
        .insertInto("asset_hashes")
        .values(
          hashes.map((hash, frame) => ({
            version_id: versionId,
            frame,
            workspace_id: workspaceId,
            hash: hash.toString(),
          })),
        )
        .execute();
      // Each band probed on its own (an index-only range per band, as hangar_similar does): ORed in one
      // join, the planner read every hash of the workspace (1.3 s a picture at a million). The band
      // index covers hash and version, not the frame: a hit within the distance is a main picture's
      // when its version's frame 0 holds that hash (a primary-key lookup, for the few hits left).
      const band = (b: string) => sql`
        SELECT h.version_id, h.hash, bit_count((h.hash # t.hash)::bit(64)) AS d FROM t
        JOIN asset_hashes h ON h.workspace_id = ${workspaceId} AND ${sql.ref(`h.${b}`)} = ANY (hangar_band_probes(${sql.ref(`t.${b}`)}))`;
      await sql`
        WITH t AS (SELECT hash, b0, b1, b2, b3 FROM asset_hashes WHERE version_id = ${versionId} AND frame = 0)
        INSERT INTO asset_hash_pairs (workspace_id, version_a, version_b, distance)
        SELECT ${workspaceId}, least(c.version_id, ${versionId}::uuid), greatest(c.version_id, ${versionId}::uuid), min(c.d)
        FROM (${sql.join(["b0", "b1", "b2", "b3"].map(band), sql` UNION ALL `)}) c
        WHERE c.d <= ${pairDistance} AND c.version_id <> ${versionId}
          AND EXISTS (SELECT 1 FROM asset_hashes f WHERE f.version_id = c.version_id AND f.frame = 0 AND f.hash = c.hash)
        GROUP BY c.version_id
        ORDER BY min(c.d) LIMIT ${PAIRS_PER_VERSION}
        ON CONFLICT DO NOTHING`.execute(tx);
    });
  },

  /** The live asset's id, or null. */
  async liveAsset(db: Db, workspaceId: string, assetId: string): Promise<boolean> {
    const r = await sql<{ id: string }>`SELECT a.id FROM assets a
      WHERE a.id = ${assetId} AND a.workspace_id = ${workspaceId} AND ${LIVE}`.execute(db);
    return r.rows.length > 0;
  },

  /** Assets within `maxDistance` of the asset, nearest first (hangar_similar: index probes only). */
  async similar(db: Db, workspaceId: string, assetId: string, maxDistance: number, limit: number) {
    const r = await sql<{ asset_id: string; distance: number }>`
      SELECT asset_id, distance FROM hangar_similar(${workspaceId}, ${assetId}, ${maxDistance})
      ORDER BY distance, asset_id LIMIT ${limit}`.execute(db);
    return r.rows;
  },

  /** Sizes of live assets. */
  async sizes(db: Db, workspaceId: string, ids: string[]) {
    if (!ids.length) return new Map<string, number>();
    const r = await sql<{ id: string; size: string }>`SELECT a.id, a.size FROM assets a
      WHERE a.workspace_id = ${workspaceId} AND a.id = ANY(${ids}::uuid[]) AND ${LIVE}`.execute(db);
    return new Map(r.rows.map((x) => [x.id, Number(x.size)]));
  },

  async dismiss(db: Db, workspaceId: string, assetIds: string[], userId: string) {
    await db
      .insertInto("duplicate_dismissals")
      .values({ workspace_id: workspaceId, asset_ids: assetIds, dismissed_by: userId })
      .execute();
  },

  async maxDistance(db: Db, workspaceId: string): Promise<number | null> {
    const r = await db
      .selectFrom("duplicate_settings")
      .select("max_distance")
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    return r?.max_distance ?? null;
  },

  async setMaxDistance(db: Db, workspaceId: string, maxDistance: number) {
    await db
      .insertInto("duplicate_settings")
      .values({ workspace_id: workspaceId, max_distance: maxDistance })
      .onConflict((oc) => oc.column("workspace_id").doUpdateSet({ max_distance: maxDistance, updated_at: new Date() }))
      .execute();
  },

  /**
   * Current versions of COMPLETED live assets with a picture and no hash yet (the backfill's batch):
   * version id, workspace, directory, renditions, duration.
   */
  async unhashed(db: Db, after: string, limit: number) {
    const r = await sql<{
      version_id: string;
      workspace_id: string;
      directory: string;
      renditions: {
        thumbnail?: string;
        sprite?: { file: string; columns: number; rows: number; width: number; height: number; interval: number };
      };
      duration: number | null;
    }>`
      SELECT v.id AS version_id, v.workspace_id, v.directory, v.renditions, v.duration FROM assets a
      JOIN asset_versions v ON v.id = coalesce(a.current_version_id, a.id)
      WHERE ${LIVE} AND v.status = 'COMPLETED' AND v.directory IS NOT NULL AND v.renditions ? 'thumbnail'
        AND NOT EXISTS (SELECT 1 FROM asset_hashes h WHERE h.version_id = v.id) AND v.id > ${after}
      ORDER BY v.id LIMIT ${limit}`.execute(db);
    return r.rows;
  },
};
