import type { Db } from "../db/db.ts";

export const orphansRepo = {
  /**
   * Which of these media directories belong to an asset or a version of one (live or deleted): a
   * version's is `{workspace}/{version id}` (an asset's first version has the asset's id).
   */
  async knownDirectories(db: Db, directories: string[]): Promise<Set<string>> {
    if (directories.length === 0) return new Set();
    const ids = directories.map((d) => d.split("/")[1] ?? "").filter((id) => /^[0-9a-f-]{36}$/.test(id));
    const [assets, versions] = await Promise.all([
      db.selectFrom("assets").select("directory").where("directory", "in", directories).execute(),
      ids.length
        ? db.selectFrom("asset_versions").select("directory").where("id", "in", ids).execute()
        : Promise.resolve([]),
    ]);
    return new Set([...assets, ...versions].map((r) => r.directory).filter((d): d is string => d !== null));
  },
  /** Which of these upload ids still have an upload row. */
  async knownUploads(db: Db, ids: string[]): Promise<Set<string>> {
    const uuids = ids.filter((id) => /^[0-9a-f-]{36}$/.test(id));
    if (uuids.length === 0) return new Set();
    const rows = await db.selectFrom("uploads").select("id").where("id", "in", uuids).execute();
    return new Set(rows.map((r) => r.id));
  },
};
