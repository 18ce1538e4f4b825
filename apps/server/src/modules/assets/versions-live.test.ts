import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { readSse } from "../../../test/sse.ts";
import { newVersion, png, processedAsset, processNow } from "../../../test/versions.ts";

/**
 * The live event of versions (issue 29): `asset.version` names the asset, its current version and its
 * count whenever one of them (or the newer version on its way) changes, so an open viewer and the
 * grids refetch the asset. Heard through a real stream (docs/architecture.md §4.3).
 */
let env: TestEnv;
let base = "";
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0", LIVE_HEARTBEAT_SECONDS: "3600" }, { work: false });
  base = await env.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => env.close());

type Seen = { event: string; data: Record<string, unknown> };

/** A member's stream of the workspace; `next` resolves with the first event (from now on) matching `pred`. */
async function stream(c: Client, ws: string) {
  const ctrl = new AbortController();
  const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(`${base}/api/v1/workspaces/${ws}/events`, { headers: { cookie }, signal: ctrl.signal });
  expect(res.status).toBe(200);
  const events: Seen[] = [];
  const waiters: Array<() => void> = [];
  void readSse(res, (event, data) => {
    events.push({ event, data: data as Record<string, unknown> });
    for (const w of waiters.splice(0)) w();
  });
  const next = (pred: (e: Seen) => boolean) => {
    const from = events.length;
    return new Promise<Seen>((resolve) => {
      const check = () => {
        const hit = events.slice(from).find(pred);
        if (hit) resolve(hit);
        else waiters.push(check);
      };
      check();
    });
  };
  await next((e) => e.event === "ready");
  return { next, close: () => ctrl.abort() };
}

describe("versions on the live stream", () => {
  it("announces a new version becoming current, and an older one made current again", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const id = await processedAsset(env, c, ws.id, "live.png", await png("#336699"));
    const s = await stream(c, ws.id);
    const ofAsset = (pred: (d: Record<string, unknown>) => boolean) =>
      s.next((e) => e.event === "asset.version" && e.data.asset_id === id && pred(e.data));
    try {
      const promoted = ofAsset((d) => d.version_count === 2 && d.current_version_id !== id);
      const v2 = await newVersion(env, c, ws.id, id, "live-2.png", await png("#993366"));
      expect((await promoted).data).toEqual({
        type: "asset.version",
        asset_id: id,
        current_version_id: v2.version_id,
        version_count: 2,
      });
      const back = ofAsset((d) => d.current_version_id === id);
      expect((await c.post(`/workspaces/${ws.id}/assets/${id}/versions/${id}/current`)).statusCode).toBe(200);
      expect((await back).data).toMatchObject({ current_version_id: id, version_count: 2 });
    } finally {
      s.close();
    }
  }, 120_000);

  it("announces a newer version whose processing fails, with its status; the current one stays", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const id = await processedAsset(env, c, ws.id, "fails.png", await png("#446688"));
    const good = await png("#884466", 1200, 900);
    const s = await stream(c, ws.id);
    try {
      const v2 = await newVersion(env, c, ws.id, id, "fails-2.png", good.subarray(0, Math.floor(good.length / 3)), {
        process: false,
      });
      const failed = s.next((e) => e.event === "asset.version" && e.data.asset_id === id && e.data.status === "error");
      await processNow(env, id, v2.version_id);
      expect((await failed).data).toEqual({
        type: "asset.version",
        asset_id: id,
        current_version_id: id,
        version_count: 2,
        version_id: v2.version_id,
        status: "error",
      });
      // What the viewer's version menu reads when it hears it: v2 failed, v1 still current.
      const versions = (await c.get(`/workspaces/${ws.id}/assets/${id}/versions`)).json();
      expect(
        versions.map((v: { number: number; status: string; is_current: boolean }) => [
          v.number,
          v.status,
          v.is_current,
        ]),
      ).toEqual([
        [2, "error", false],
        [1, "COMPLETED", true],
      ]);
    } finally {
      s.close();
    }
  }, 120_000);
});
