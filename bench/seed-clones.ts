// Clones processed seed assets in SQL (their renditions hard-linked under each clone's own directory),
// so a bench gets a big library where every card has a real picture, without running the pipeline
// on each. Newest first by g; optionally all filed in one board. Needs local (disk) storage.
import { existsSync } from "node:fs";
import { link, mkdir } from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import type { Runtime } from "../apps/server/src/runtime.ts";
import { mediaKey } from "../apps/server/src/storage/blob-store.ts";

export async function seedClones(
  srv: { rt: Runtime },
  workspaceId: string,
  seedIds: string[],
  count: number,
  boardId?: string,
): Promise<void> {
  const { db, store } = srv.rt;
  const columns = (
    await sql<{ column_name: string }>`
      SELECT column_name FROM information_schema.columns WHERE table_name = 'assets' AND table_schema = current_schema() AND is_generated = 'NEVER'
      ORDER BY ordinal_position`.execute(db)
  ).rows.map((r) => r.column_name);
  const override: Record<string, string> = {
    id: "c.id",
    directory: `'${workspaceId}/' || c.id`,
    storage_key: `'media/${workspaceId}/' || c.id || '/original'`,
    name: "'picture-' || lpad(c.g::text, 6, '0') || '.jpg'",
    date_uploaded: "now() - make_interval(secs => c.g)",
    created_at: "now() - make_interval(secs => c.g)",
    updated_at: "now() - make_interval(secs => c.g)",
    sha256: "NULL",
    // Each clone its own placeholder (the last AC byte varies), so a page decodes one per card as a
    // real library does, and no cache of them flatters a browser bench.
    placeholder:
      "encode(set_byte(decode(t.placeholder, 'base64'), length(decode(t.placeholder, 'base64')) - 1, c.g % 256), 'base64')",
  };
  const list = columns.map((c) => sql.ref(c));
  const values = columns.map((c) => (c in override ? sql.raw(override[c]!) : sql.ref(`t.${c}`)));
  await sql`
    INSERT INTO assets (${sql.join(list)})
    SELECT ${sql.join(values)}
    FROM (SELECT gen_random_uuid() AS id, g, ${sql.lit(seedIds.length)} AS n FROM generate_series(1, ${sql.lit(count)}) g) c
    JOIN (SELECT a.*, row_number() OVER (ORDER BY a.id) - 1 AS k FROM assets a WHERE a.id IN (${sql.join(seedIds)})) t
      ON t.k = c.g % c.n`.execute(db);
  await sql`UPDATE assets SET deleted_at = now() WHERE id IN (${sql.join(seedIds)})`.execute(db);
  if (boardId)
    await sql`INSERT INTO board_assets (board_id, asset_id)
      SELECT ${boardId}, id FROM assets WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL
      ON CONFLICT DO NOTHING`.execute(db);
  await sql`ANALYZE assets`.execute(db);
  await sql`ANALYZE board_assets`.execute(db);
  const seeds = await db.selectFrom("assets").select(["id", "directory"]).where("id", "in", seedIds).execute();
  const clones = await db
    .selectFrom("assets")
    .select(["id", "directory", "storage_key"])
    .where("workspace_id", "=", workspaceId)
    .where("deleted_at", "is", null)
    .execute();
  const renditionFiles = ["original", "thumbnail.jpg", "grid.webp", "grid.jpg", "placeholder.txt"];
  const sources = seeds.map((s) => {
    const out: Array<[string, string]> = [];
    for (const f of renditionFiles) {
      const p = store.localPath(mediaKey(s.directory!, f));
      if (p && existsSync(p)) out.push([f, p]);
    }
    return out;
  });
  if (!sources[0]?.length) throw new Error("seedClones needs local storage (the renditions are hard-linked)");
  let done = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (done < clones.length) {
        const c = clones[done++]!;
        const from = sources[done % sources.length]!;
        const dir = path.dirname(store.localPath(mediaKey(c.directory!, "x"))!);
        await mkdir(dir, { recursive: true });
        for (const [f, p] of from) await link(p, path.join(dir, f)).catch(() => {});
      }
    }),
  );
}
