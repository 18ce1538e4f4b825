import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/databases.ts";
import { textPdf } from "../../test/fixtures.ts";
import {
  Client,
  createTestEnv,
  PASSWORD,
  type TestEnv,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../test/harness.ts";
import { migrateToLatest } from "../db/db.ts";
import type { Runtime } from "../runtime.ts";
import { backup, type Manifest, restore } from "./backup.ts";

async function rowCounts(rt: Runtime): Promise<Record<string, number>> {
  const { rows } = await rt.pool.query<{ tablename: string }>(
    "select tablename from pg_tables where schemaname = 'public' order by tablename",
  );
  const out: Record<string, number> = {};
  for (const r of rows) {
    const c = await rt.pool.query<{ n: string }>(`select count(*) as n from "${r.tablename}"`);
    out[r.tablename] = Number(c.rows[0]?.n);
  }
  return out;
}

async function blobHashes(rt: Runtime): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const b of rt.store.list("")) {
    const h = createHash("sha256");
    for await (const chunk of await rt.store.read(b.key)) h.update(chunk as Buffer);
    out[b.key] = h.digest("hex");
  }
  return out;
}

describe("backup and restore", () => {
  let source: TestEnv;
  let target: TestEnv;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let sourceDb: Awaited<ReturnType<typeof freshDatabase>>;
  let dir = "";
  beforeAll(async () => {
    // Both sides on databases of their own: row counts are this test's rows only.
    sourceDb = await freshDatabase();
    source = await createTestEnv({ AI_TAGS: "0", DATABASE_URL: sourceDb.url });
    await migrateToLatest(source.rt.db);
    db = await freshDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), "hangar-backup-"));
  }, 60_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
    await db?.drop();
    await sourceDb?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("round-trips the database and every blob byte for byte into another database and store", async () => {
    const { ws, admin, members } = await workspaceWith(source, ["COMMENTER"]);
    const board = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Launch" })).json();
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#c03020" } })
      .jpeg()
      .toBuffer();
    const photo = await uploadBytes(admin.client, ws.id, "poster.jpg", jpeg, board.id);
    const pdf = await uploadBytes(admin.client, ws.id, "brief.pdf", textPdf(2));
    const big = await uploadBytes(admin.client, ws.id, "raw.bin", randomBytes(6 * 1024 * 1024));
    for (const id of [photo, pdf, big]) expect((await waitForAsset(admin.client, ws.id, id)).status).toBe("COMPLETED");
    await admin.client.post(`/workspaces/${ws.id}/assets/tags`, { asset_ids: [photo], tags: ["red", "launch"] });
    await members.COMMENTER!.client.post(`/workspaces/${ws.id}/assets/favorites`, {
      asset_ids: [photo],
      favorite: true,
    });

    const manifest: Manifest = await backup({ pool: source.rt.pool, store: source.rt.store }, path.join(dir, "b1"));
    expect(manifest.blobs.length).toBeGreaterThanOrEqual(5); // originals plus renditions
    expect(manifest.tables.find((t) => t.name === "assets")?.rows).toBe(3);
    const before = { rows: await rowCounts(source.rt), blobs: await blobHashes(source.rt) };
    // A backup into a directory that is not empty is refused (never mixes two backups).
    await expect(backup({ pool: source.rt.pool, store: source.rt.store }, path.join(dir, "b1"))).rejects.toThrow(
      /not empty/,
    );

    target = await createTestEnv({ AI_TAGS: "0", DATABASE_URL: db.url }, { work: false });
    await migrateToLatest(target.rt.db);
    // Something already in the target store that the backup lacks must be gone afterwards.
    await target.rt.store.putStream("media/stray/file.bin", Readable.from([Buffer.from("x")]));
    await restore({ pool: target.rt.pool, store: target.rt.store }, path.join(dir, "b1"));

    const after = { rows: await rowCounts(target.rt), blobs: await blobHashes(target.rt) };
    expect(after.blobs).toEqual(before.blobs);
    // The migration bookkeeping is the target's own; every other table matches row for row.
    expect(after.rows).toEqual(before.rows);

    // The restored instance works: the same user signs in and sees the asset with its tags and media.
    const client = new Client(target.app);
    const login = await client.post("/users/login", { email: admin.email, password: PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
    const asset = (await client.get(`/workspaces/${ws.id}/assets/${photo}`)).json();
    expect(asset).toMatchObject({ status: "COMPLETED", tags: ["launch", "red"] });
    // Its signed original URL serves the very bytes uploaded to the source.
    const media = await target.app.inject({ method: "GET", url: asset.url });
    expect(media.statusCode, `${asset.url} ${media.body.slice(0, 200)}`).toBe(200);
    expect(media.rawPayload.equals(jpeg)).toBe(true);
  }, 120_000);

  it("refuses a damaged backup before changing anything", async () => {
    const manifest = JSON.parse(await readFile(path.join(dir, "b1", "manifest.json"), "utf8")) as Manifest;
    const victim = manifest.blobs[0]!;
    const file = path.join(dir, "b1", "blobs", victim.key);
    const bytes = await readFile(file);
    bytes[0] = (bytes[0]! + 1) % 256;
    await writeFile(file, bytes);
    const rows = await rowCounts(target.rt);
    await expect(restore({ pool: target.rt.pool, store: target.rt.store }, path.join(dir, "b1"))).rejects.toThrow(
      /missing or damaged/,
    );
    expect(await rowCounts(target.rt)).toEqual(rows);
  });
});
