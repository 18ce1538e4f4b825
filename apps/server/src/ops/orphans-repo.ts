import type { Db } from "../db/db.ts";

export const orphansRepo = {
  /** Which of these media directories (`{workspace}/{asset}`) belong to an asset row (live or deleted). */
  async knownDirectories(db: Db, directories: string[]): Promise<Set<string>> {
    if (directories.length === 0) return new Set();
    const rows = await db.selectFrom("assets").select("directory").where("directory", "in", directories).execute();
    return new Set(rows.map((r) => r.directory).filter((d): d is string => d !== null));
  },
  /** Which of these upload ids still have an upload row. */
  async knownUploads(db: Db, ids: string[]): Promise<Set<string>> {
    const uuids = ids.filter((id) => /^[0-9a-f-]{36}$/.test(id));
    if (uuids.length === 0) return new Set();
    const rows = await db.selectFrom("uploads").select("id").where("id", "in", uuids).execute();
    return new Set(rows.map((r) => r.id));
  },
};
