import type { Selectable, Updateable } from "kysely";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { AssetsTable } from "../../db/types.ts";

export type AssetRow = Selectable<AssetsTable>;

const JSON_COLUMNS = ["palette", "renditions", "exif", "metadata"] as const;

export const assetsRepo = {
  /** The id of a live asset of the workspace, as a subquery (none when deleted or elsewhere). */
  liveIdSql(workspaceId: string, assetId: string) {
    return sql<{ id: string }>`SELECT a.id FROM assets a
      WHERE a.id = ${assetId}::uuid AND a.workspace_id = ${workspaceId}::uuid AND a.deleted_at IS NULL`;
  },
  /** The id of an asset of the workspace, live or in Recently deleted, as a subquery. */
  idSql(workspaceId: string, assetId: string) {
    return sql<{ id: string }>`SELECT a.id FROM assets a
      WHERE a.id = ${assetId}::uuid AND a.workspace_id = ${workspaceId}::uuid`;
  },
  /** The live ones among `assetIds`, in the order given. */
  liveIdsSql(workspaceId: string, assetIds: string[]) {
    return sql<{ id: string }>`SELECT a.id FROM unnest(${assetIds}::uuid[]) WITH ORDINALITY AS i(id, n)
      JOIN assets a ON a.id = i.id
      WHERE a.workspace_id = ${workspaceId}::uuid AND a.deleted_at IS NULL ORDER BY i.n`;
  },
  byId(db: Db, assetId: string): Promise<AssetRow | undefined> {
    return db.selectFrom("assets").selectAll().where("id", "=", assetId).executeTakeFirst();
  },
  async update(db: Db, assetId: string, patch: Updateable<AssetsTable>) {
    // node-pg sends JS arrays as PostgreSQL arrays; jsonb columns need JSON text.
    const json: Record<string, unknown> = {};
    for (const k of JSON_COLUMNS)
      if (patch[k] !== undefined) json[k] = patch[k] === null ? null : JSON.stringify(patch[k]);
    await db
      .updateTable("assets")
      .set({ ...patch, ...json, updated_at: new Date() })
      .where("id", "=", assetId)
      .execute();
  },
  async bumpAttempts(db: Db, assetId: string): Promise<number> {
    const r = await db
      .updateTable("assets")
      .set((eb) => ({ processing_attempts: eb("processing_attempts", "+", 1) }))
      .where("id", "=", assetId)
      .returning("processing_attempts")
      .executeTakeFirst();
    return r?.processing_attempts ?? 0;
  },
  async replaceAiTags(
    db: Db,
    assetId: string,
    workspaceId: string,
    tags: Array<{ label: string; confidence: number; type: string }>,
  ) {
    await db.transaction().execute(async (tx) => {
      await tx.deleteFrom("ai_tags").where("asset_id", "=", assetId).execute();
      if (tags.length) {
        await tx
          .insertInto("ai_tags")
          .values(
            tags.map((t) => ({
              asset_id: assetId,
              workspace_id: workspaceId,
              label: t.label,
              confidence: t.confidence,
              type: t.type,
            })),
          )
          .execute();
      }
    });
  },
  /** The ids among `assetIds` that are live assets of the workspace. */
  async liveIds(db: Db, workspaceId: string, assetIds: string[]): Promise<string[]> {
    const rows = await db
      .selectFrom("assets")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .where("id", "in", assetIds)
      .execute();
    return rows.map((r) => r.id);
  },
  /**
   * Replaces the tag list of each asset, or adds to it (`add`: what they have stays, a tag they
   * already have is not doubled), creating workspace tags as needed (one transaction).
   */
  async setTags(db: Db, workspaceId: string, assetIds: string[], names: string[], mode: "replace" | "add" = "replace") {
    await db.transaction().execute(async (tx) => {
      let tagIds: string[] = [];
      if (names.length) {
        await tx
          .insertInto("tags")
          .values(names.map((name) => ({ workspace_id: workspaceId, name })))
          .onConflict((oc) => oc.expression(sql`workspace_id, lower(name)`).doNothing())
          .execute();
        const rows = await tx
          .selectFrom("tags")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where(
            sql`lower(name)`,
            "in",
            names.map((n) => n.toLowerCase()),
          )
          .execute();
        tagIds = rows.map((r) => r.id);
      }
      if (mode === "replace") await tx.deleteFrom("asset_tags").where("asset_id", "in", assetIds).execute();
      if (tagIds.length) {
        await tx
          .insertInto("asset_tags")
          .values(assetIds.flatMap((asset_id) => tagIds.map((tag_id) => ({ asset_id, tag_id }))))
          .onConflict((oc) => oc.columns(["asset_id", "tag_id"]).doNothing())
          .execute();
      }
      await tx.updateTable("assets").set({ updated_at: new Date() }).where("id", "in", assetIds).execute();
    });
  },
  async setFavorite(db: Db, userId: string, assetIds: string[], favorite: boolean) {
    if (favorite) {
      await db
        .insertInto("asset_favorites")
        .values(assetIds.map((asset_id) => ({ user_id: userId, asset_id })))
        .onConflict((oc) => oc.columns(["user_id", "asset_id"]).doNothing())
        .execute();
    } else {
      await db.deleteFrom("asset_favorites").where("user_id", "=", userId).where("asset_id", "in", assetIds).execute();
    }
  },
  /** Moving makes the destination the assets' only board (the root: no board at all). */
  async move(db: Db, assetIds: string[], destination: string | null, userId: string) {
    await db.transaction().execute(async (tx) => {
      await tx.deleteFrom("board_assets").where("asset_id", "in", assetIds).execute();
      if (destination) {
        await tx
          .insertInto("board_assets")
          .values(assetIds.map((asset_id) => ({ board_id: destination, asset_id, added_by: userId })))
          .execute();
      }
      await tx.updateTable("assets").set({ updated_at: new Date() }).where("id", "in", assetIds).execute();
    });
  },
  /** Soft delete: the rows stay (and their board memberships) so a restore puts them back. */
  async softDelete(db: Db, workspaceId: string, assetIds: string[], userId: string, batch: string): Promise<number> {
    const r = await db
      .updateTable("assets")
      .set({ deleted_at: new Date(), deleted_by: userId, delete_batch: batch })
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .where("id", "in", assetIds)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  workspaceTags(db: Db, workspaceId: string) {
    return db
      .selectFrom("tags as t")
      .leftJoin("asset_tags as at", "at.tag_id", "t.id")
      .leftJoin("assets as a", (j) => j.onRef("a.id", "=", "at.asset_id").on("a.deleted_at", "is", null))
      .select(["t.name", sql<number>`count(a.id)::int`.as("count")])
      .where("t.workspace_id", "=", workspaceId)
      .groupBy("t.name")
      .orderBy("t.name")
      .execute();
  },
  workspaceAiTags(db: Db, workspaceId: string) {
    return db
      .selectFrom("ai_tags as t")
      .innerJoin("assets as a", "a.id", "t.asset_id")
      .select([
        "t.label as name",
        sql<string>`min(t.type)`.as("type"),
        sql<number>`count(*)::int`.as("count"),
        sql<number>`max(t.confidence)`.as("max_confidence"),
      ])
      .where("t.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .groupBy("t.label")
      .orderBy("count", "desc")
      .orderBy("t.label")
      .execute();
  },
};
