import type { Db } from "../db/db.ts";

export const backupRepo = {
  /** Live assets whose processing had not finished when the backup was taken (their jobs were not kept). */
  /** Versions being processed (an asset's first, or a newer one) of live assets. */
  async processingVersions(db: Db): Promise<Array<{ id: string; asset_id: string }>> {
    return db
      .selectFrom("asset_versions as v")
      .innerJoin("assets as a", "a.id", "v.asset_id")
      .select(["v.id", "v.asset_id"])
      .where("v.status", "=", "processing")
      .where("v.deleted_at", "is", null)
      .where("a.deleted_at", "is", null)
      .execute();
  },
};
