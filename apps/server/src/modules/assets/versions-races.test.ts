import type { AssetVersion } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { newVersion, png, processedAsset } from "./versions.fixture.ts";

/**
 * Versions changed at once (issue 29): each change locks its asset's row, so concurrent changes
 * happen one after the other. Sent in parallel, they end as the same changes sent in turn would.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

describe("versions changed at once", () => {
  it("deleting every version in parallel leaves exactly one, and the asset answers with it", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const id = await processedAsset(env, c, ws.id, "r.png", await png("#101820"));
    const ids = [id];
    for (const colour of ["#201810", "#182010", "#102018"])
      ids.push((await newVersion(env, c, ws.id, id, "r.png", await png(colour))).version_id!);
    const answers = await Promise.all(ids.map((v) => c.del(`/workspaces/${ws.id}/assets/${id}/versions/${v}`)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 409]);
    const left = (await c.get(`/workspaces/${ws.id}/assets/${id}/versions`)).json() as AssetVersion[];
    expect(left).toHaveLength(1);
    expect(left[0]!.is_current).toBe(true);
    const asset = (await c.get(`/workspaces/${ws.id}/assets/${id}`)).json();
    expect(asset).toMatchObject({ version_count: 1, current_version: { id: left[0]!.id } });
  }, 120_000);

  it("two assets stacked onto each other at once: one stack wins, the other finds its asset gone", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const a = await processedAsset(env, c, ws.id, "a.png", await png("#aa1010"));
    const b = await processedAsset(env, c, ws.id, "b.png", await png("#10aa10"));
    const stack = (onto: string, other: string) =>
      c.post(`/workspaces/${ws.id}/assets/${onto}/versions/stack`, { asset_ids: [other] });
    const [ab, ba] = await Promise.all([stack(a, b), stack(b, a)]);
    expect([ab.statusCode, ba.statusCode].sort()).toEqual([200, 404]);
    const winner = ab.statusCode === 200 ? a : b;
    const versions = (await c.get(`/workspaces/${ws.id}/assets/${winner}/versions`)).json() as AssetVersion[];
    expect(versions.map((v) => v.number)).toEqual([2, 1]);
    const listed = (await c.post(`/workspaces/${ws.id}/assets`, { page_size: 10 })).json();
    expect(listed.data.map((x: { id: string }) => x.id)).toEqual([winner]);
  }, 120_000);
});
