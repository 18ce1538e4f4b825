import { FACE_QUALITY_MIN } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { Renditions } from "../../db/types.ts";

/** A transaction is a Kysely too. */
type Tx = Db;

/** Faces of live assets' current versions only (`f` a face row). */
const LIVE_FACE = sql`JOIN asset_versions v ON v.id = f.version_id
  JOIN assets a ON a.id = v.asset_id AND coalesce(a.current_version_id, a.id) = v.id
    AND a.deleted_at IS NULL AND NOT a.is_temp`;

/** People listed at most (a workspace of many thousand strangers is cut, biggest first). */
export const PEOPLE_LIMIT = 2_000;
/** Waiting faces clustered in one run of the job (DBSCAN is quadratic). */
export const CLUSTER_BATCH = 2_000;

export interface FaceRow {
  id: string;
  asset_id: string;
  version_id: string;
  frame: number;
  box: number[];
  quality: number;
  person_id: string | null;
  person_name: string | null;
  by_user: boolean;
  directory: string | null;
  renditions: Renditions | null;
  processed_at: Date | null;
}

const FACE_COLUMNS = sql`f.id, a.id AS asset_id, f.version_id, f.frame, f.box, f.quality, f.person_id,
  p.name AS person_name, f.by_user, v.directory, v.renditions, v.processed_at`;

export interface NewFace {
  frame: number;
  box: number[];
  quality: number;
  descriptor: number[] | null;
}

/** People and faces (issue 32): every statement over faces, people, face_rejections, face_scans, face_settings. */
export const peopleRepo = {
  async enabled(db: Db | Tx, workspaceId: string): Promise<boolean> {
    const r = await db
      .selectFrom("face_settings")
      .select("enabled")
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    return r?.enabled ?? true;
  },

  /** Turns recognition on or off; off deletes every face, person and scan of the workspace in the same transaction. */
  async setEnabled(db: Db, workspaceId: string, enabled: boolean) {
    await db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`faces:${workspaceId}`}))`.execute(tx);
      await tx
        .insertInto("face_settings")
        .values({ workspace_id: workspaceId, enabled })
        .onConflict((oc) => oc.column("workspace_id").doUpdateSet({ enabled, updated_at: new Date() }))
        .execute();
      if (enabled) return;
      await tx.deleteFrom("faces").where("workspace_id", "=", workspaceId).execute();
      await tx.deleteFrom("people").where("workspace_id", "=", workspaceId).execute();
      await tx.deleteFrom("face_scans").where("workspace_id", "=", workspaceId).execute();
    });
  },

  /** What scanning a version needs: its workspace, renditions, whether it was scanned, whether recognition is on. */
  async scanTarget(db: Db, versionId: string) {
    const r = await sql<{
      workspace_id: string;
      directory: string | null;
      renditions: Renditions | null;
      duration: number | null;
      status: string;
      scanned: boolean;
      enabled: boolean;
      live: boolean;
    }>`
      SELECT v.workspace_id, v.directory, v.renditions, v.duration, v.status,
        EXISTS (SELECT 1 FROM face_scans s WHERE s.version_id = v.id) AS scanned,
        coalesce((SELECT fs.enabled FROM face_settings fs WHERE fs.workspace_id = v.workspace_id), true) AS enabled,
        EXISTS (SELECT 1 FROM assets a WHERE a.id = v.asset_id AND a.deleted_at IS NULL) AS live
      FROM asset_versions v WHERE v.id = ${versionId}`.execute(db);
    return r.rows[0] ?? null;
  },

  /**
   * A version's faces and its scan, under the workspace's lock (re-checking that recognition is still
   * on: a switch turned off meanwhile wins). Answers the new faces' ids, or null when it was off.
   */
  async saveScan(db: Db, workspaceId: string, versionId: string, faces: NewFace[], error: string | null) {
    return db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`faces:${workspaceId}`}))`.execute(tx);
      if (!(await peopleRepo.enabled(tx, workspaceId))) return null;
      await tx.deleteFrom("faces").where("version_id", "=", versionId).execute();
      const ids = faces.length
        ? (
            await tx
              .insertInto("faces")
              .values(
                faces.map((f) => ({
                  workspace_id: workspaceId,
                  version_id: versionId,
                  frame: f.frame,
                  box: f.box,
                  quality: f.quality,
                  descriptor: f.descriptor,
                })),
              )
              .returning("id")
              .execute()
          ).map((r) => r.id)
        : [];
      await tx
        .insertInto("face_scans")
        .values({ version_id: versionId, workspace_id: workspaceId, face_count: faces.length, error })
        .onConflict((oc) =>
          oc.column("version_id").doUpdateSet({ face_count: faces.length, error, scanned_at: new Date() }),
        )
        .execute();
      return ids;
    });
  },

  /** Runs `fn` in a transaction holding the workspace's face lock (grouping, user decisions). */
  locked<T>(db: Db, workspaceId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`faces:${workspaceId}`}))`.execute(tx);
      return fn(tx);
    });
  },

  /** People with a centroid (the candidates a face may join). */
  async centroids(db: Db | Tx, workspaceId: string) {
    const rows = await db
      .selectFrom("people")
      .select(["id", "centroid", "centroid_count"])
      .where("workspace_id", "=", workspaceId)
      .where("centroid", "is not", null)
      .execute();
    return rows.map((r) => ({ id: r.id, centroid: r.centroid!, count: r.centroid_count }));
  },

  /** Groupable faces of these ids that wait (no person, not placed by a member), with descriptors and rejections. */
  async waitingFaces(db: Db | Tx, workspaceId: string, ids: string[] | null) {
    const r = await sql<{ id: string; descriptor: number[]; rejected: string[] }>`
      SELECT f.id, f.descriptor,
        coalesce((SELECT array_agg(x.person_id) FROM face_rejections x WHERE x.face_id = f.id), '{}') AS rejected
      FROM faces f
      WHERE f.workspace_id = ${workspaceId} AND f.person_id IS NULL AND NOT f.by_user
        AND f.descriptor IS NOT NULL AND f.quality >= ${FACE_QUALITY_MIN}
        ${ids ? sql`AND f.id = ANY(${ids}::uuid[])` : sql``}
      ORDER BY f.created_at DESC LIMIT ${CLUSTER_BATCH}`.execute(db);
    return r.rows;
  },

  /** Workspaces with waiting groupable faces (the periodic job's list). */
  async workspacesWaiting(db: Db): Promise<string[]> {
    const r = await sql<{ workspace_id: string }>`
      SELECT DISTINCT f.workspace_id FROM faces f
      WHERE f.person_id IS NULL AND NOT f.by_user AND f.descriptor IS NOT NULL AND f.quality >= ${FACE_QUALITY_MIN}
      LIMIT 10000`.execute(db);
    return r.rows.map((x) => x.workspace_id);
  },

  async setFacePerson(tx: Db | Tx, faceIds: string[], personId: string | null, byUser: boolean) {
    if (!faceIds.length) return;
    await tx.updateTable("faces").set({ person_id: personId, by_user: byUser }).where("id", "in", faceIds).execute();
  },

  async setCentroid(tx: Db | Tx, personId: string, centroid: number[] | null, count: number) {
    await tx.updateTable("people").set({ centroid, centroid_count: count }).where("id", "=", personId).execute();
  },

  /** A person's centroid again from their groupable faces (after a merge or a move). */
  async recomputeCentroid(tx: Db | Tx, personId: string) {
    await sql`
      UPDATE people p SET centroid = c.mean, centroid_count = c.n, updated_at = now()
      FROM (
        SELECT (SELECT array_agg(m ORDER BY i) FROM (
                  SELECT i, avg(d)::real AS m FROM faces f, unnest(f.descriptor) WITH ORDINALITY u(d, i)
                  WHERE f.person_id = ${personId} AND f.descriptor IS NOT NULL AND f.quality >= ${FACE_QUALITY_MIN}
                  GROUP BY i) x) AS mean,
               (SELECT count(*)::int FROM faces f WHERE f.person_id = ${personId} AND f.descriptor IS NOT NULL
                  AND f.quality >= ${FACE_QUALITY_MIN}) AS n
      ) c WHERE p.id = ${personId}`.execute(tx);
  },

  async createPerson(tx: Db | Tx, workspaceId: string, name: string | null) {
    const r = await tx
      .insertInto("people")
      .values({ workspace_id: workspaceId, name, cover_face_id: null, centroid: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    return r.id;
  },

  async personByName(tx: Db | Tx, workspaceId: string, name: string) {
    const r = await sql<{ id: string }>`SELECT id FROM people
      WHERE workspace_id = ${workspaceId} AND lower(name) = lower(${name}) ORDER BY created_at LIMIT 1`.execute(tx);
    return r.rows[0]?.id ?? null;
  },

  /** The person of this workspace (any state), or null. */
  async person(db: Db | Tx, workspaceId: string, personId: string) {
    return (
      (await db
        .selectFrom("people")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", personId)
        .executeTakeFirst()) ?? null
    );
  },

  async peopleIn(db: Db | Tx, workspaceId: string, ids: string[]) {
    if (!ids.length) return [];
    return db
      .selectFrom("people")
      .select(["id"])
      .where("workspace_id", "=", workspaceId)
      .where("id", "in", ids)
      .execute();
  },

  async updatePerson(
    tx: Db | Tx,
    personId: string,
    patch: { name?: string | null; hidden?: boolean; cover_face_id?: string },
  ) {
    await tx
      .updateTable("people")
      .set({ ...patch, updated_at: new Date() })
      .where("id", "=", personId)
      .execute();
  },

  /** Moves every face and rejection of `from` to `into`, then deletes `from`. */
  async merge(tx: Tx, into: string, from: string[]) {
    await tx.updateTable("faces").set({ person_id: into }).where("person_id", "in", from).execute();
    await sql`INSERT INTO face_rejections (face_id, person_id)
      SELECT face_id, ${into}::uuid FROM face_rejections WHERE person_id = ANY(${from}::uuid[])
      ON CONFLICT DO NOTHING`.execute(tx);
    // A face once rejected from the person it now belongs to by the merge: the merge wins.
    await sql`DELETE FROM face_rejections x USING faces f
      WHERE x.person_id = ${into} AND f.id = x.face_id AND f.person_id = ${into}`.execute(tx);
    await tx.deleteFrom("people").where("id", "in", from).execute();
  },

  async reject(tx: Tx, faceId: string, personId: string) {
    await tx
      .insertInto("face_rejections")
      .values({ face_id: faceId, person_id: personId })
      .onConflict((oc) => oc.doNothing())
      .execute();
  },

  async clearRejection(tx: Tx, faceId: string, personId: string) {
    await tx.deleteFrom("face_rejections").where("face_id", "=", faceId).where("person_id", "=", personId).execute();
  },

  /** A live face of the workspace (its asset's current version), or null. */
  async face(db: Db | Tx, workspaceId: string, faceId: string): Promise<(FaceRow & { workspace_id: string }) | null> {
    const r = await sql<FaceRow & { workspace_id: string }>`
      SELECT ${FACE_COLUMNS}, f.workspace_id FROM faces f ${LIVE_FACE} LEFT JOIN people p ON p.id = f.person_id
      WHERE f.id = ${faceId} AND f.workspace_id = ${workspaceId}`.execute(db);
    return r.rows[0] ?? null;
  },

  /** Whether the asset is live in the workspace. */
  async liveAsset(db: Db, workspaceId: string, assetId: string): Promise<boolean> {
    const r = await sql<{ id: string }>`SELECT a.id FROM assets a WHERE a.id = ${assetId}
      AND a.workspace_id = ${workspaceId} AND a.deleted_at IS NULL AND NOT a.is_temp`.execute(db);
    return r.rows.length > 0;
  },

  /** The faces on an asset's current version, by frame then left to right; and whether it was scanned. */
  async assetFaces(db: Db, workspaceId: string, assetId: string) {
    const r = await sql<FaceRow>`
      SELECT ${FACE_COLUMNS} FROM faces f ${LIVE_FACE} LEFT JOIN people p ON p.id = f.person_id
      WHERE a.id = ${assetId} AND a.workspace_id = ${workspaceId} AND f.workspace_id = ${workspaceId}
      ORDER BY f.frame, f.box[1], f.id LIMIT 500`.execute(db);
    const s = await sql<{ scanned: boolean }>`
      SELECT EXISTS (SELECT 1 FROM assets a JOIN face_scans s ON s.version_id = coalesce(a.current_version_id, a.id)
        WHERE a.id = ${assetId} AND a.workspace_id = ${workspaceId}) AS scanned`.execute(db);
    return { faces: r.rows, scanned: !!s.rows[0]?.scanned };
  },

  /** A person's live faces, best first, and how many. */
  async personFaces(db: Db, personId: string, limit: number, offset: number) {
    const r = await sql<FaceRow & { total: number }>`
      SELECT ${FACE_COLUMNS}, count(*) OVER ()::int AS total FROM faces f ${LIVE_FACE}
      LEFT JOIN people p ON p.id = f.person_id
      WHERE f.person_id = ${personId}
      ORDER BY f.quality DESC, f.id LIMIT ${limit} OFFSET ${offset}`.execute(db);
    return r.rows;
  },

  /**
   * The workspace's people with live faces: counts and a cover (the chosen face while it is live,
   * else the best), named first by name, then by faces; hidden ones only when asked.
   */
  async list(db: Db, workspaceId: string, hidden: boolean, personId?: string) {
    const r = await sql<{
      id: string;
      name: string | null;
      hidden: boolean;
      face_count: number;
      asset_count: number;
      cover_id: string | null;
    }>`
      SELECT p.id, p.name, p.hidden, c.face_count, c.asset_count,
        coalesce(
          (SELECT f.id FROM faces f ${LIVE_FACE} WHERE f.id = p.cover_face_id AND f.person_id = p.id),
          (SELECT f.id FROM faces f ${LIVE_FACE} WHERE f.person_id = p.id ORDER BY f.quality DESC, f.id LIMIT 1)
        ) AS cover_id
      FROM people p
      JOIN LATERAL (
        SELECT count(*)::int AS face_count, count(DISTINCT a.id)::int AS asset_count
        FROM faces f ${LIVE_FACE} WHERE f.person_id = p.id
      ) c ON c.face_count > 0
      WHERE p.workspace_id = ${workspaceId}
        ${personId ? sql`AND p.id = ${personId}` : hidden ? sql`` : sql`AND NOT p.hidden`}
      ORDER BY p.name IS NULL, lower(p.name), c.face_count DESC, p.id
      LIMIT ${PEOPLE_LIMIT}`.execute(db);
    return r.rows;
  },

  /** Faces by id (covers), with their pictures. */
  async facesById(db: Db, ids: string[]) {
    if (!ids.length) return [];
    const r = await sql<FaceRow>`
      SELECT ${FACE_COLUMNS} FROM faces f ${LIVE_FACE} LEFT JOIN people p ON p.id = f.person_id
      WHERE f.id = ANY(${ids}::uuid[])`.execute(db);
    return r.rows;
  },

  /** Current versions of COMPLETED live assets with a picture, never scanned, in workspaces where recognition is on. */
  async unscanned(db: Db, after: string, limit: number) {
    const r = await sql<{ version_id: string }>`
      SELECT v.id AS version_id FROM assets a
      JOIN asset_versions v ON v.id = coalesce(a.current_version_id, a.id)
      WHERE a.deleted_at IS NULL AND NOT a.is_temp AND v.status = 'COMPLETED' AND v.directory IS NOT NULL
        AND v.renditions ? 'thumbnail' AND v.id > ${after}
        AND NOT EXISTS (SELECT 1 FROM face_scans s WHERE s.version_id = v.id)
        AND NOT EXISTS (SELECT 1 FROM face_settings fs WHERE fs.workspace_id = a.workspace_id AND NOT fs.enabled)
      ORDER BY v.id LIMIT ${limit}`.execute(db);
    return r.rows.map((x) => x.version_id);
  },

  /** Counts of the workspace's faces, people and scans (the privacy switch's test and the bench). */
  async counts(db: Db, workspaceId: string) {
    const r = await sql<{ faces: number; people: number; scans: number }>`
      SELECT (SELECT count(*) FROM faces WHERE workspace_id = ${workspaceId})::int AS faces,
        (SELECT count(*) FROM people WHERE workspace_id = ${workspaceId})::int AS people,
        (SELECT count(*) FROM face_scans WHERE workspace_id = ${workspaceId})::int AS scans`.execute(db);
    return r.rows[0]!;
  },
};
