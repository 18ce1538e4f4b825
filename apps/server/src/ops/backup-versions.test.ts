import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AssetVersion } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/databases.ts";
import { textPdf } from "../../test/fixtures.ts";
import { Client, createTestEnv, PASSWORD, requestUrl, type TestEnv, workspaceWith } from "../../test/harness.ts";
import { newVersion, png, processedAsset } from "../../test/versions.ts";
import { migrateToLatest } from "../db/db.ts";
import { backup, restore } from "./backup.ts";

/**
 * Backup and restore hold versions (issue 29): every version's row, media and comments come back, on
 * disk and on S3 (vitest.s3.config.ts runs this file there too).
 */
const blobHashes = async (env: TestEnv) => {
  const out: Record<string, string> = {};
  for await (const b of env.rt.store.list("")) {
    const h = createHash("sha256");
    for await (const chunk of await env.rt.store.read(b.key)) h.update(chunk as Buffer);
    out[b.key] = h.digest("hex");
  }
  return out;
};

describe("backup and restore with versions", () => {
  let source: TestEnv;
  let target: TestEnv;
  const dbs: Array<Awaited<ReturnType<typeof freshDatabase>>> = [];
  let dir = "";
  beforeAll(async () => {
    const s = await freshDatabase();
    const t = await freshDatabase();
    dbs.push(s, t);
    source = await createTestEnv({ AI_TAGS: "0", OCR: "0", DATABASE_URL: s.url }, { work: false });
    await migrateToLatest(source.rt.db);
    target = await createTestEnv({ AI_TAGS: "0", OCR: "0", DATABASE_URL: t.url }, { work: false });
    await migrateToLatest(target.rt.db);
    dir = await mkdtemp(path.join(os.tmpdir(), "hangar-backup-versions-"));
  }, 60_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
    for (const d of dbs) await d.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("round-trips every version (rows, media, comments) and serves an older version's bytes after", async () => {
    const { ws, admin } = await workspaceWith(source);
    const first = await png("#406080");
    const id = await processedAsset(source, admin.client, ws.id, "cover.png", first);
    await admin.client.post(`/workspaces/${ws.id}/comments`, { content_type: "asset", object_id: id, text: "v1" });
    const v2 = await newVersion(source, admin.client, ws.id, id, "cover.pdf", textPdf(2));
    const v3 = await newVersion(source, admin.client, ws.id, id, "cover-3.png", await png("#804060"));
    await admin.client.del(`/workspaces/${ws.id}/assets/${id}/versions/${v3.version_id}`);
    const before = (await admin.client.get(`/workspaces/${ws.id}/assets/${id}/versions`)).json() as AssetVersion[];
    const blobs = await blobHashes(source);

    const manifest = await backup({ pool: source.rt.pool, store: source.rt.store }, path.join(dir, "b"));
    expect(manifest.tables.find((t) => t.name === "asset_versions")?.rows).toBe(3);
    await restore({ pool: target.rt.pool, store: target.rt.store }, path.join(dir, "b"));
    expect(await blobHashes(target)).toEqual(blobs);

    const client = new Client(target.app);
    expect((await client.post("/users/login", { email: admin.email, password: PASSWORD })).statusCode).toBe(200);
    const after = (await client.get(`/workspaces/${ws.id}/assets/${id}/versions`)).json() as AssetVersion[];
    const brief = (l: AssetVersion[]) =>
      l.map((v) => [v.id, v.number, v.is_current, v.size, v.sha256, v.comment_count]);
    expect(brief(after)).toEqual(brief(before));
    expect(after.map((v) => v.number)).toEqual([2, 1]);
    expect((await client.get(`/workspaces/${ws.id}/assets/${id}`)).json()).toMatchObject({
      current_version: { id: v2.version_id, number: 2 },
      file_type: "DOCUMENT",
    });
    const trash = (await client.get(`/workspaces/${ws.id}/recently-deleted`)).json();
    expect(trash.versions.map((v: { id: string }) => v.id)).toEqual([v3.version_id]);
    // The first version's original, byte for byte, from the restored store.
    const res = await client.post(`/workspaces/${ws.id}/download`, { asset_ids: [id], version_id: id });
    expect(res.statusCode, res.body).toBe(200);
    const got = await requestUrl(target.app, "GET", res.json().direct_url);
    expect(got.rawPayload.equals(first)).toBe(true);
  }, 120_000);
});
