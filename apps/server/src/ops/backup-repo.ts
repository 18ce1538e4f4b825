import type { Db } from "../db/db.ts";

export const backupRepo = {
  /** Live assets whose processing had not finished when the backup was taken (their jobs were not kept). */
  async processingAssetIds(db: Db): Promise<string[]> {
    const rows = await db
      .selectFrom("assets")
      .select("id")
      .where("status", "=", "processing")
      .where("deleted_at", "is", null)
      .execute();
    return rows.map((r) => r.id);
  },
};
