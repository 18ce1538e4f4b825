import type { DuplicatesPage } from "@hangar/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { pictureJpeg } from "../../../test/pictures.ts";
import { processedAsset } from "../../../test/versions.ts";

/**
 * The duplicates page at scale (migration 20261206-3205): groups kept as rows (exact ones by triggers,
 * near ones rebuilt after a change) and paged in SQL. Each step checks the page against what the
 * assets are, and the kept exact groups against a regrouping from scratch.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

const page = async (c: Client, ws: string, query = "") => {
  const res = await c.get(`/workspaces/${ws}/duplicates${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DuplicatesPage;
};
const sorted = (ids: string[]) => [...ids].sort();
const shape = (p: DuplicatesPage) => p.data.map((g) => [g.kind, g.asset_ids]);

/** The workspace's exact groups as kept, then as regrouped from the assets: equal when the triggers are right. */
async function keptAndRegrouped(ws: string) {
  const read = async () =>
    (
      await sql<{ sha256: string; asset_ids: string[]; count: number; size: string; reclaimable: string }>`
        SELECT sha256, asset_ids, count, size, reclaimable FROM duplicate_groups
        WHERE workspace_id = ${ws} AND kind = 'exact' ORDER BY sha256`.execute(env.rt.db)
    ).rows;
  const kept = await read();
  await sql`SELECT hangar_duplicate_exact_rebuild(${ws}::uuid)`.execute(env.rt.db);
  return { kept, regrouped: await read() };
}

describe("duplicate groups kept as rows", () => {
  it("follows deletes, restores and purges of exact copies, pages them largest first, and matches a regrouping", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const [a, b, small] = [await pictureJpeg(61), await pictureJpeg(62), await pictureJpeg(63, 60, 200)];
    const as: string[] = [];
    for (let i = 0; i < 4; i++) as.push(await processedAsset(env, c, ws.id, `a-${i}.jpg`, a));
    const bs: string[] = [];
    for (let i = 0; i < 3; i++) bs.push(await processedAsset(env, c, ws.id, `b-${i}.jpg`, b));
    const ss: string[] = [];
    for (let i = 0; i < 3; i++) ss.push(await processedAsset(env, c, ws.id, `s-${i}.jpg`, small));

    // Largest first, then the space taken (b and s both have three; s is smaller), one a page.
    const all = await page(c, ws.id);
    expect(shape(all)).toEqual([
      ["exact", sorted(as)],
      ...(b.length > small.length
        ? [
            ["exact", sorted(bs)],
            ["exact", sorted(ss)],
          ]
        : [
            ["exact", sorted(ss)],
            ["exact", sorted(bs)],
          ]),
    ]);
    expect(all.data[0]).toMatchObject({ count: 4, size: 4 * a.length, reclaimable: 3 * a.length });
    expect(all).toMatchObject({ total_count: 3, has_more: false });
    for (const [i, g] of all.data.entries()) {
      const one = await page(c, ws.id, `?page=${i + 1}&page_size=1`);
      expect(shape(one)).toEqual([[g.kind, g.asset_ids]]);
      expect(one).toMatchObject({ total_count: 3, has_more: i < 2, page: i + 1, page_size: 1 });
    }
    expect((await page(c, ws.id, "?page=4&page_size=1")).data).toEqual([]);

    // Two copies of a deleted: a group of two, smaller than the others now.
    expect((await c.del(`/workspaces/${ws.id}/assets`, { asset_ids: as.slice(0, 2) })).statusCode).toBe(200);
    const after = await page(c, ws.id);
    expect(after.data.at(-1)).toMatchObject({ kind: "exact", asset_ids: sorted(as.slice(2)), count: 2 });
    // One restored: three again.
    const restored = await c.post(`/workspaces/${ws.id}/recently-deleted/restore`, { asset_ids: [as[0]!] });
    expect(restored.statusCode, restored.body).toBe(200);
    const back = (await page(c, ws.id)).data.find((g) => g.asset_ids.includes(as[0]!));
    expect(back).toMatchObject({ asset_ids: sorted([as[0]!, ...as.slice(2)]), count: 3, size: 3 * a.length });
    // Every copy of s but one gone for good: no group of s.
    await c.del(`/workspaces/${ws.id}/assets`, { asset_ids: ss.slice(1) });
    expect((await c.post(`/workspaces/${ws.id}/recently-deleted/purge`, { asset_ids: ss.slice(1) })).statusCode).toBe(
      200,
    );
    const last = await page(c, ws.id);
    expect(last.data.some((g) => g.asset_ids.includes(ss[0]!))).toBe(false);
    expect(last.total_count).toBe(2);

    const { kept, regrouped } = await keptAndRegrouped(ws.id);
    expect(kept).toEqual(regrouped);
    expect(kept).toHaveLength(2);
  });

  it("counts every copy uploaded at the same time (each regrouping waits for the other's commit)", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const same = await pictureJpeg(64);
    const ids = await Promise.all(
      Array.from({ length: 6 }, (_, i) => processedAsset(env, c, ws.id, `same-${i}.jpg`, same)),
    );
    const p = await page(c, ws.id);
    expect(shape(p)).toEqual([["exact", sorted(ids)]]);
    const { kept, regrouped } = await keptAndRegrouped(ws.id);
    expect(kept).toEqual(regrouped);
  });

  it("rebuilds near groups after pairs are saved, a member goes, or the distance changes", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    // Three different pictures given hashes 1, 2 and 3 bits apart (n1–n2 1, n2–n3 2, n1–n3 3), saved
    // as the pipeline saves them (their pairs found through the band index).
    const [n1, n2, n3] = [
      await processedAsset(env, c, ws.id, "n1.jpg", await pictureJpeg(65)),
      await processedAsset(env, c, ws.id, "n2.jpg", await pictureJpeg(66)),
      await processedAsset(env, c, ws.id, "n3.jpg", await pictureJpeg(67)),
    ] as [string, string, string];
    const base = 0x0fedcba987654321n;
    const save = (id: string, flip: bigint) => env.rt.services.similar.saveHashes(ws.id, id, [base ^ flip]);
    await save(n1, 0n);
    await save(n2, 0b1n);
    expect(await nearGroups(c, ws.id)).toEqual([[sorted([n1, n2]), 1]]);
    await save(n3, 0b111n);
    expect(await nearGroups(c, ws.id)).toEqual([[sorted([n1, n2, n3]), 3]]);
    // The distance: 2 still links all three (through n2), 1 only n1–n2, 0 nothing.
    for (const [d, want] of [
      [2, [[sorted([n1, n2, n3]), 2]]],
      [1, [[sorted([n1, n2]), 1]]],
      [0, []],
      [4, [[sorted([n1, n2, n3]), 3]]],
    ] as const) {
      expect((await c.put(`/workspaces/${ws.id}/duplicates/settings`, { max_distance: d })).statusCode).toBe(200);
      expect(await nearGroups(c, ws.id)).toEqual(want);
    }
    // The middle one deleted: n1–n3 remain linked at 4, not at 2; restored: three again.
    await c.del(`/workspaces/${ws.id}/assets`, { asset_ids: [n2] });
    expect(await nearGroups(c, ws.id)).toEqual([[sorted([n1, n3]), 3]]);
    await c.put(`/workspaces/${ws.id}/duplicates/settings`, { max_distance: 2 });
    expect(await nearGroups(c, ws.id)).toEqual([]);
    await c.post(`/workspaces/${ws.id}/recently-deleted/restore`, { asset_ids: [n2] });
    expect(await nearGroups(c, ws.id)).toEqual([[sorted([n1, n2, n3]), 2]]);
    // Nothing changed since: the change rows were taken, the next page rebuilds nothing.
    const changes = await sql<{ n: number }>`SELECT count(*)::int AS n FROM duplicate_near_changes
      WHERE workspace_id = ${ws.id}`.execute(env.rt.db);
    expect(changes.rows[0]!.n).toBe(0);
  });
});

const nearGroups = async (c: Client, ws: string) =>
  (await page(c, ws)).data.filter((g) => g.kind === "near").map((g) => [g.asset_ids, g.distance]);
