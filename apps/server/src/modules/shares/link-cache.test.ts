import type { Asset, ShareLink } from "@hangar/contract";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  Client,
  createTestEnv,
  requestUrl,
  type TestEnv,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";

/**
 * Share links are resolved from the read cache, as sessions are (issue 27): a visitor's request costs
 * no query for the link, yet every change to the link, its asset or its workspace takes effect at once.
 */
let env: TestEnv;
// Another connection: what another API process or hand-written SQL would change.
let other: pg.Client;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" });
  other = new pg.Client({ connectionString: inject("databaseUrl") });
  await other.connect();
});
afterAll(async () => {
  await other.end();
  await env.close();
});

/** Database connections taken from the pool while `fn` runs. */
async function checkouts(fn: () => Promise<unknown>) {
  let n = 0;
  const count = () => n++;
  env.rt.pool.on("acquire", count);
  try {
    await fn();
  } finally {
    env.rt.pool.off("acquire", count);
  }
  return n;
}

/** Polls until `check` holds: notifications (of this test's own writes too) arrive a moment later. */
async function eventually(check: () => Promise<boolean>, ms = 3_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const media = (url: string) => requestUrl(env.app, "GET", url);
/**
 * Fetches a visitor's media URL until the share check is answered from the cache: the only query left
 * is the asset's own row, the one a member's fetch of the same thumbnail makes too.
 */
const warm = (url: string) =>
  eventually(async () => {
    let status = 0;
    const n = await checkouts(async () => {
      status = (await media(url)).statusCode;
    });
    return status === 200 && n <= 1;
  });

/** Asks the public API until the link is resolved from the cache (the answer's own queries only). */
const apiWarm = (v: Client, token: string, asset: string) =>
  eventually(async () => {
    let status = 0;
    const url = `/share/${token}/assets/${asset}`;
    const n = await checkouts(async () => {
      status = (await v.get(url)).statusCode;
    });
    return status === 200 && n <= 2;
  });

async function setup() {
  const { ws, admin } = await workspaceWith(env);
  const c = admin.client;
  const w = ws.id as string;
  const board = (await c.post(`/workspaces/${w}/boards`, { name: "Shared" })).json().id as string;
  const elsewhere = (await c.post(`/workspaces/${w}/boards`, { name: "Elsewhere" })).json().id as string;
  const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();
  const asset = await uploadBytes(c, w, "a.png", png, board);
  expect((await waitForAsset(c, w, asset)).status).toBe("COMPLETED");
  const link = (await c.get(`/workspaces/${w}/share/board/${board}`)).json() as ShareLink;
  const set = async (body: Record<string, unknown>) =>
    expect((await c.put(`/workspaces/${w}/share/board/${board}`, body)).statusCode).toBe(200);
  const v = new Client(env.app);
  const visitorAsset = async (password?: string) => {
    const res = await v.request(
      "GET",
      `/share/${link.token}/assets/${asset}`,
      undefined,
      password ? { headers: { "x-share-password": password } } : {},
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Asset;
  };
  return { c, w, board, elsewhere, asset, link, set, v, visitorAsset };
}

describe("share links through the read cache", () => {
  it("a visitor's thumbnail costs no query for the link, nor does the public API's link", async () => {
    const { link, v, asset, visitorAsset } = await setup();
    const thumb = (await visitorAsset()).thumbnail_url!;
    await warm(thumb);
    // The public API: the token and what the link shows come from the cache; the asset's row and
    // the link's activity counter are the two queries left.
    await apiWarm(v, link.token, asset);
  });

  it("disabling, a new password, new flags, moving or deleting the asset: at once", async () => {
    const { c, w, board, elsewhere, asset, link, set, v, visitorAsset } = await setup();
    const t = link.token;
    let thumb = (await visitorAsset()).thumbnail_url!;

    // Disabled, then on again.
    await warm(thumb);
    await set({ is_active: false });
    expect((await media(thumb)).statusCode).toBe(403);
    expect((await v.get(`/share/${t}`)).statusCode).toBe(403);
    await set({ is_active: true });
    expect((await media(thumb)).statusCode).toBe(200);

    // A password: every URL issued before asks for it; the right one unlocks again.
    await warm(thumb);
    await set({ password: "cache-pass" });
    expect((await media(thumb)).statusCode).toBe(401);
    expect((await v.get(`/share/${t}`)).statusCode).toBe(401);
    thumb = (await visitorAsset("cache-pass")).thumbnail_url!;
    expect((await media(thumb)).statusCode).toBe(200);
    await set({ password: null });

    // Flags: the original only while downloads are allowed; fields only while shown.
    await set({ allow_downloads: true });
    const original = (await visitorAsset()).url!;
    thumb = (await visitorAsset()).thumbnail_url!;
    expect((await media(original)).statusCode).toBe(200);
    // (The link's state is one cache entry for all its URLs; the original's fetch also counts a download.)
    await warm(thumb);
    await set({ allow_downloads: false });
    expect((await media(original)).statusCode).toBe(404);
    expect((await visitorAsset()).url).toBeNull();
    expect((await v.get(`/share/${t}/assets/${asset}/custom-fields`)).statusCode).toBe(200);
    await set({ show_custom_fields: false });
    expect((await v.get(`/share/${t}/assets/${asset}/custom-fields`)).statusCode).toBe(403);

    // Moved out of the shared board, then back, then deleted.
    await warm(thumb);
    await c.post(`/workspaces/${w}/assets/move`, { asset_ids: [asset], destination_id: elsewhere });
    expect((await media(thumb)).statusCode).toBe(404);
    expect((await v.get(`/share/${t}/assets/${asset}`)).statusCode).toBe(404);
    await c.post(`/workspaces/${w}/assets/move`, { asset_ids: [asset], destination_id: board });
    expect((await media(thumb)).statusCode).toBe(200);
    await warm(thumb);
    await c.del(`/workspaces/${w}/assets`, { asset_ids: [asset] });
    expect((await media(thumb)).statusCode).toBe(404);
    expect((await v.get(`/share/${t}/assets/${asset}`)).statusCode).toBe(404);
  });

  it("the workspace deleted: the cached link opens nothing at once", async () => {
    const { c, w, asset, link, v, visitorAsset } = await setup();
    const thumb = (await visitorAsset()).thumbnail_url!;
    await warm(thumb);
    await apiWarm(v, link.token, asset);
    expect((await c.del(`/workspaces/${w}`)).statusCode).toBe(200);
    expect((await v.get(`/share/${link.token}/assets/${asset}`)).statusCode).toBe(404);
    expect((await media(thumb)).statusCode).toBe(404);
  });

  it("a change made elsewhere (another process, SQL) reaches the cached link within a moment", async () => {
    const { link, v, visitorAsset } = await setup();
    const thumb = (await visitorAsset()).thumbnail_url!;
    await warm(thumb);
    await other.query("UPDATE share_links SET is_active = false WHERE id = $1", [link.id]);
    await eventually(async () => (await media(thumb)).statusCode === 403);
    await eventually(async () => (await v.get(`/share/${link.token}`)).statusCode === 403);
  });
});
