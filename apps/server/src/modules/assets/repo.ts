import type { Selectable, Updateable } from "kysely";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { AssetsTable } from "../../db/types.ts";

export type AssetRow = Selectable<AssetsTable>;

const JSON_COLUMNS = ["palette", "renditions", "exif", "metadata"] as const;

export const assetsRepo = {
  get(db: Db, workspaceId: string, assetId: string): Promise<AssetRow | undefined> {
    return db
      .selectFrom("assets")
      .selectAll()
      .where("id", "=", assetId)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
  },
  byId(db: Db, assetId: string): Promise<AssetRow | undefined> {
    return db.selectFrom("assets").selectAll().where("id", "=", assetId).executeTakeFirst();
  },
  /** Tags, AI tags and live boards of some assets, three indexed queries whatever the count. */
  async relations(db: Db, assetIds: string[]) {
    if (assetIds.length === 0) return { tags: [], aiTags: [], boards: [] };
    const [tags, aiTags, boards] = await Promise.all([
      db
        .selectFrom("asset_tags as at")
        .innerJoin("tags as t", "t.id", "at.tag_id")
        .select(["at.asset_id", "t.name"])
        .where("at.asset_id", "in", assetIds)
        .orderBy("t.name")
        .execute(),
      db
        .selectFrom("ai_tags")
        .select(["asset_id", "label", "confidence", "type"])
        .where("asset_id", "in", assetIds)
        .orderBy("confidence", "desc")
        .execute(),
      db
        .selectFrom("board_assets as ba")
        .innerJoin("boards as b", "b.id", "ba.board_id")
        .select(["ba.asset_id", "b.id", "b.name"])
        .where("ba.asset_id", "in", assetIds)
        .where("b.deleted_at", "is", null)
        .orderBy("b.name")
        .execute(),
    ]);
    return { tags, aiTags, boards };
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
