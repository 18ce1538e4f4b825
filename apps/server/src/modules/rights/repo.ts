import type { AssetRights, RightsLicense } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

/** A row of asset_rights as stored (the contract's AssetRights, with the expiry as an instant). */
export interface RightsRow {
  license: string | null;
  cc_variant: string | null;
  credit: string;
  source: string;
  usage_notes: string;
  territories: string[];
  model_release: boolean;
  property_release: boolean;
  expire_at: Date | null;
}
export type RightsValues = Omit<RightsRow, "expire_at"> & { expire_at: Date | null };

export const toRights = (r: RightsRow | undefined): AssetRights | null =>
  r
    ? {
        license: r.license as RightsLicense | null,
        cc_variant: r.cc_variant as AssetRights["cc_variant"],
        credit: r.credit,
        source: r.source,
        usage_notes: r.usage_notes,
        territories: r.territories,
        model_release: r.model_release,
        property_release: r.property_release,
        expires_at: r.expire_at?.toISOString() ?? null,
      }
    : null;

const COLUMNS = [
  "license",
  "cc_variant",
  "credit",
  "source",
  "usage_notes",
  "territories",
  "model_release",
  "property_release",
  "expire_at",
] as const;

export const rightsRepo = {
  async get(db: Db, assetId: string): Promise<RightsRow | undefined> {
    return db.selectFrom("asset_rights").select(COLUMNS).where("id", "=", assetId).executeTakeFirst();
  },
  /** The live (not deleted, not temporary) assets of the workspace among `ids`. */
  async liveIds(db: Db, workspaceId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .selectFrom("assets")
      .select("id")
      .where(sql<boolean>`id = ANY(${ids}::uuid[])`)
      .where("workspace_id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .where("is_temp", "=", false)
      .execute();
    return rows.map((r) => r.id);
  },
  /** The asset's rights as a whole: written, or the row removed when they say nothing. */
  async put(db: Db, workspaceId: string, assetId: string, v: RightsValues | null, by: string | null): Promise<void> {
    if (v === null) {
      await db.deleteFrom("asset_rights").where("id", "=", assetId).execute();
      return;
    }
    await db
      .insertInto("asset_rights")
      .values({ id: assetId, workspace_id: workspaceId, ...v, updated_by: by })
      .onConflict((oc) => oc.column("id").doUpdateSet({ ...v, updated_by: by, updated_at: sql`now()` }))
      .execute();
  },
  /**
   * Some keys of many assets' rights in one statement: a row made for an asset that had none, the
   * named columns set on those that had one (the others kept). A licence other than Creative Commons
   * clears the variant (the table's check would refuse it).
   */
  async bulk(
    db: Db,
    workspaceId: string,
    ids: string[],
    set: Partial<RightsValues>,
    by: string | null,
  ): Promise<number> {
    if (ids.length === 0) return 0;
    const clearsVariant = set.license !== undefined && set.license !== "creative_commons";
    const changes: Partial<RightsValues> = clearsVariant ? { ...set, cc_variant: null } : set;
    const rows = ids.map((id) => ({ id, workspace_id: workspaceId, ...changes, updated_by: by }));
    const result = await db
      .insertInto("asset_rights")
      .values(rows)
      .onConflict((oc) =>
        oc.column("id").doUpdateSet((eb) => {
          const out: Record<string, unknown> = { updated_by: by, updated_at: sql`now()` };
          for (const c of COLUMNS) if (changes[c] !== undefined) out[c] = eb.ref(`excluded.${c}`);
          return out;
        }),
      )
      .execute();
    return result.reduce((n, r) => n + Number(r.numInsertedOrUpdatedRows ?? 0), 0);
  },
};
