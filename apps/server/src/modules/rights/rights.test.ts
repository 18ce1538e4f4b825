import type { Asset, Review, RightsAnswer, ShareLink } from "@hangar/contract";
import { RIGHTS_MESSAGES } from "@hangar/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, requestUrl, type TestEnv, uniqueEmail } from "../../../test/harness.ts";
import { images, team } from "../../../test/team.ts";

/**
 * Usage rights (issue 33): set on one asset or many (EDITOR+), validated, read by every member; once
 * they expire the asset leaves share links and review links at once (payload, listing, every URL
 * handed out, zips) and comes back when extended; non-ADMIN downloads are refused saying why. Time
 * is the runtime's clock, which these tests move (a cached answer must not outlive the rights).
 */
let env: TestEnv;
let realNow: () => Date;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
  realNow = env.rt.clock.now;
});
afterAll(() => env.close());
afterEach(() => {
  env.rt.clock.now = realNow;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const moveClock = (ms: number) => {
  env.rt.clock.now = () => new Date(Date.now() + ms);
};

async function setup() {
  const t = await team(env, { ed: "EDITOR", com: "COMMENTER" });
  const c = t.admin.client;
  const [a, b] = await images(env, c, t.ws, 2);
  const board = (await c.post(`/workspaces/${t.ws}/boards`, { name: "Press kit" })).json().id as string;
  expect((await c.post(`/workspaces/${t.ws}/boards/${board}/assets`, { asset_ids: [a, b] })).statusCode).toBe(200);
  const rightsUrl = (id: string) => `/workspaces/${t.ws}/assets/${id}/rights`;
  return { ...t, c, a: a!, b: b!, board, rightsUrl };
}

describe("rights on an asset", () => {
  it("are set as a whole by an EDITOR, read by a COMMENTER, refused to a COMMENTER (403) and an outsider (404)", async () => {
    const s = await setup();
    const empty = (await s.m.com.client.get(s.rightsUrl(s.a))).json() as RightsAnswer;
    expect(empty).toEqual({
      rights: {
        license: null,
        cc_variant: null,
        credit: "",
        source: "",
        usage_notes: "",
        territories: [],
        model_release: false,
        property_release: false,
        expires_at: null,
      },
      rights_status: "none",
    });
    const body = {
      license: "creative_commons",
      cc_variant: "by-sa",
      credit: "  Ana Photographer ",
      source: "Unsplash",
      usage_notes: "Web only.\nNot for print.",
      territories: ["de", "Worldwide", "DE", "fr"],
      model_release: true,
      expires_at: "2031-05-31",
    };
    const put = await s.m.ed.client.put(s.rightsUrl(s.a), body);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({
      rights: {
        license: "creative_commons",
        cc_variant: "by-sa",
        credit: "Ana Photographer",
        source: "Unsplash",
        usage_notes: "Web only.\nNot for print.",
        territories: ["DE", "Worldwide", "FR"],
        model_release: true,
        property_release: false,
        expires_at: "2031-05-31T23:59:59.999Z",
      },
      rights_status: "ok",
    });
    // The asset answers carry them (the asset GET and the listing).
    const asset = (await s.m.com.client.get(`/workspaces/${s.ws}/assets/${s.a}`)).json() as Asset;
    expect(asset.rights.credit).toBe("Ana Photographer");
    expect(asset.rights_status).toBe("ok");
    expect((await s.m.com.client.put(s.rightsUrl(s.a), { credit: "Me" })).statusCode).toBe(403);
    const outsider = (await team(env, {})).admin.client;
    expect((await outsider.get(s.rightsUrl(s.a))).statusCode).toBe(404);
    expect((await outsider.put(s.rightsUrl(s.a), { credit: "x" })).statusCode).toBe(404);
    // Keys left out of a PUT are cleared; nothing left removes the rights.
    expect((await s.c.put(s.rightsUrl(s.a), {})).json().rights_status).toBe("none");
    // An unknown asset of the workspace: 404.
    expect((await s.c.put(s.rightsUrl(crypto.randomUUID()), { credit: "x" })).statusCode).toBe(404);
    // The audit log names the change (object: the asset).
    const rows = await env.rt.db
      .selectFrom("audit_events")
      .select(["action", "object_id"])
      .where("workspace_id", "=", s.ws)
      .where("object_type", "=", "rights")
      .execute();
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(["rights.created", "rights.deleted"]));
    expect(rows.every((r) => r.object_id === s.a)).toBe(true);
  });

  it("refuses bad input with 422 naming the field", async () => {
    const s = await setup();
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await s.c.put(s.rightsUrl(s.a), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.json())).toContain(field);
    };
    await bad({ license: "owned", cc_variant: "by" }, "cc_variant");
    await bad({ cc_variant: "by" }, "cc_variant");
    await bad({ license: "stolen" }, "license");
    await bad({ credit: "x".repeat(301) }, "credit");
    await bad({ usage_notes: "y".repeat(4001) }, "usage_notes");
    await bad({ territories: Array.from({ length: 51 }, (_, i) => `T${i}`) }, "territories");
    await bad({ territories: ["  "] }, "territories");
    await bad({ source: "a\u0000b" }, "source");
    await bad({ expires_at: "next week" }, "expires_at");
    await bad({ model_release: "yes" }, "model_release");
    await bad({ owner: "me" }, "owner");
    const bulk = (body: Record<string, unknown>) => s.c.post(`/workspaces/${s.ws}/assets/rights`, body);
    expect((await bulk({ asset_ids: [s.a], changes: {} })).statusCode).toBe(422);
    expect((await bulk({ asset_ids: [], changes: { credit: "x" } })).statusCode).toBe(422);
    expect((await bulk({ asset_ids: [s.a], changes: { cc_variant: "by" } })).statusCode).toBe(422);
  });

  it("bulk: some keys on many assets, the others kept; a COMMENTER 403, an outsider 404, a foreign asset 404", async () => {
    const s = await setup();
    await s.c.put(s.rightsUrl(s.a), { license: "creative_commons", cc_variant: "by", credit: "Ana" });
    const bulk = (c: Client, body: Record<string, unknown>) => c.post(`/workspaces/${s.ws}/assets/rights`, body);
    const res = await bulk(s.m.ed.client, {
      asset_ids: [s.a, s.b],
      changes: { source: "Agency", expires_at: "2030-01-01T00:00:00Z" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, count: 2 });
    const [ra, rb] = await Promise.all([s.c.get(s.rightsUrl(s.a)), s.c.get(s.rightsUrl(s.b))]);
    expect(ra.json().rights).toMatchObject({
      license: "creative_commons",
      cc_variant: "by",
      credit: "Ana",
      source: "Agency",
    });
    expect(rb.json().rights).toMatchObject({ license: null, credit: "", source: "Agency" });
    expect(rb.json().rights.expires_at).toBe("2030-01-01T00:00:00.000Z");
    // Another licence clears the variant.
    await bulk(s.c, { asset_ids: [s.a], changes: { license: "owned" } });
    expect((await s.c.get(s.rightsUrl(s.a))).json().rights).toMatchObject({ license: "owned", cc_variant: null });
    expect((await bulk(s.m.com.client, { asset_ids: [s.a], changes: { credit: "x" } })).statusCode).toBe(403);
    const other = await team(env, {});
    expect((await bulk(other.admin.client, { asset_ids: [s.a], changes: { credit: "x" } })).statusCode).toBe(404);
    const [foreign] = await images(env, other.admin.client, other.ws, 1);
    expect((await bulk(s.c, { asset_ids: [s.a, foreign], changes: { credit: "x" } })).statusCode).toBe(404);
  });

  it("the listing filters: expiring within N days, expired, no release, licence", async () => {
    const s = await setup();
    const [c3, c4] = await images(env, s.c, s.ws, 2);
    await s.c.put(s.rightsUrl(s.a), { license: "licensed", expires_at: at(5 * DAY), model_release: true });
    await s.c.put(s.rightsUrl(s.b), { license: "editorial", expires_at: at(-HOUR) });
    await s.c.put(s.rightsUrl(c3!), { license: "owned", property_release: true, expires_at: at(90 * DAY) });
    const ids = async (f: Record<string, unknown>) => {
      const res = await s.c.post(`/workspaces/${s.ws}/assets`, { ...f, page_size: 50 });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as Asset[]).map((x) => x.id).sort();
    };
    const sorted = (...xs: string[]) => [...xs].sort();
    expect(await ids({ rights_expire: { within_days: 30 } })).toEqual([s.a]);
    expect(await ids({ rights_expire: { within_days: 120 } })).toEqual(sorted(s.a, c3!));
    expect(await ids({ rights_expire: { expired: true } })).toEqual([s.b]);
    expect(await ids({ rights_expire: { expired: false } })).toEqual(sorted(s.a, c3!, c4!));
    expect(await ids({ no_release: true })).toEqual(sorted(s.b, c4!));
    expect(await ids({ no_release: false })).toEqual(sorted(s.a, c3!));
    expect(await ids({ rights_license: { includes: ["editorial", "owned"] } })).toEqual(sorted(s.b, c3!));
    // The clock moved a week on: the first one has expired too.
    moveClock(7 * DAY);
    expect(await ids({ rights_expire: { expired: true } })).toEqual(sorted(s.a, s.b));
    const res = await s.c.post(`/workspaces/${s.ws}/assets`, { rights_expire: { within_days: 0 } });
    expect(res.statusCode).toBe(422);
    const listed = (await s.c.post(`/workspaces/${s.ws}/assets`, { rights_expire: { expired: true } })).json();
    expect((listed.data as Asset[]).map((x) => x.rights_status)).toEqual(["expired", "expired"]);
  });
});

describe("expiry", () => {
  const share = async (c: Client, ws: string, board: string, body: Record<string, unknown> = {}) => {
    const res = await c.put(`/workspaces/${ws}/share/board/${board}`, body);
    expect(res.statusCode).toBe(200);
    return res.json() as ShareLink;
  };
  const fetchUrl = (url: string) => requestUrl(env.app, "GET", url);

  it("takes the asset out of a board share link at once (listing, asset, media URLs, zip), back when extended", async () => {
    const s = await setup();
    await s.c.put(s.rightsUrl(s.a), { credit: "Ana", expires_at: at(2 * HOUR) });
    const link = await share(s.c, s.ws, s.board, { allow_downloads: true });
    const v = new Client(env.app);
    const list = async () => ((await v.get(`/share/${link.token}/assets`)).json().data as Asset[]).map((x) => x.id);
    expect((await list()).sort()).toEqual([s.a, s.b].sort());
    const shown = (await v.get(`/share/${link.token}/assets/${s.a}`)).json() as Asset;
    expect(shown.rights_status).toBe("none"); // visitors are told nothing of rights
    expect((await fetchUrl(shown.thumbnail_url!)).statusCode).toBe(200);
    expect((await fetchUrl(shown.url!)).statusCode).toBe(200);
    const zip = (await v.post(`/share/${link.token}/download`, {})).json().download_url as string;

    // Three hours later (nothing was written: the cached "it is shared" must not outlive the rights).
    moveClock(3 * HOUR);
    expect(await list()).toEqual([s.b]);
    expect((await v.get(`/share/${link.token}/assets/${s.a}`)).statusCode).toBe(404);
    expect((await fetchUrl(shown.thumbnail_url!)).statusCode).toBe(404);
    expect((await fetchUrl(shown.url!)).statusCode).toBe(404);
    const zipped = await fetchUrl(zip);
    expect(zipped.statusCode).toBe(200);
    const names = zipped.rawPayload.toString("latin1");
    const nameOf = async (id: string) => (await s.c.get(`/workspaces/${s.ws}/assets/${id}`)).json().name as string;
    expect(names).toContain(await nameOf(s.b));
    expect(names).not.toContain(await nameOf(s.a));
    expect(names).not.toContain(RIGHTS_MESSAGES.zipNoteName); // visitors get no note of what is hidden
    // Members still see it in the app, marked expired.
    const member = (await s.m.com.client.get(`/workspaces/${s.ws}/assets/${s.a}`)).json() as Asset;
    expect(member.rights_status).toBe("expired");

    // Extended: back at once, its old URLs too.
    await s.c.put(s.rightsUrl(s.a), { credit: "Ana", expires_at: at(30 * DAY) });
    expect((await list()).sort()).toEqual([s.a, s.b].sort());
    expect((await v.get(`/share/${link.token}/assets/${s.a}`)).statusCode).toBe(200);
    expect((await fetchUrl(shown.thumbnail_url!)).statusCode).toBe(200);
    // Set into the past by a bulk edit: gone at once.
    await s.c.post(`/workspaces/${s.ws}/assets/rights`, { asset_ids: [s.a], changes: { expires_at: at(-DAY) } });
    expect(await list()).toEqual([s.b]);
    expect((await fetchUrl(shown.thumbnail_url!)).statusCode).toBe(404);
  });

  it("an asset link of an expired asset opens nothing; a review link leaves it out", async () => {
    const s = await setup();
    const assetLink = (await s.c.get(`/workspaces/${s.ws}/share/asset/${s.a}?board_id=${s.board}`)).json() as ShareLink;
    const guest = uniqueEmail("guest");
    const created = await s.c.post(`/workspaces/${s.ws}/reviews`, {
      title: "Cover",
      asset_ids: [s.a, s.b],
      stages: [{ reviewers: [{ email: guest, name: "Gus" }] }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const reviewers = (created.json() as Review).stages.flatMap((x) => x.reviewers);
    const rl = reviewers.find((x) => x.email === guest)!.link!;
    const v = new Client(env.app);
    const page = async () =>
      (await v.get(`/review/${rl.token}`)).json().assets.map((x: { asset: Asset }) => x.asset.id);
    expect(await page()).toEqual([s.a, s.b]);
    const thumb = (await v.get(`/review/${rl.token}/assets/${s.a}`)).json().thumbnail_url as string;
    const opened = await v.get(`/share/${assetLink.token}`);
    expect(opened.statusCode, opened.body).toBe(200);
    await s.c.put(s.rightsUrl(s.a), { expires_at: at(-HOUR) });
    expect((await v.get(`/share/${assetLink.token}`)).statusCode).toBe(404);
    expect(await page()).toEqual([s.b]);
    expect((await v.get(`/review/${rl.token}/assets/${s.a}`)).statusCode).toBe(404);
    expect((await fetchUrl(thumb)).statusCode).toBe(404);
    await s.c.put(s.rightsUrl(s.a), { expires_at: null });
    expect(await page()).toEqual([s.a, s.b]);
    expect((await fetchUrl(thumb)).statusCode).toBe(200);
    expect((await v.get(`/share/${assetLink.token}`)).statusCode).toBe(200);
  });

  it("non-ADMIN downloads are refused saying why (one asset, a selection); a board zip leaves it out with a note; ADMINs download", async () => {
    const s = await setup();
    await s.c.put(s.rightsUrl(s.a), { expires_at: "2020-03-01" });
    const name = (await s.c.get(`/workspaces/${s.ws}/assets/${s.a}`)).json().name as string;
    const download = (c: Client, body: Record<string, unknown>) => c.post(`/workspaces/${s.ws}/download`, body);
    for (const c of [s.m.ed.client, s.m.com.client]) {
      for (const body of [{ asset_ids: [s.a] }, { asset_ids: [s.a, s.b] }]) {
        const res = await download(c, body);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          code: "RIGHTS_EXPIRED",
          detail: `The usage rights of ${name} expired on 2020-03-01: only ADMINs can download it.`,
        });
      }
    }
    expect((await download(s.m.ed.client, { asset_ids: [s.b] })).statusCode).toBe(200);
    const single = await download(s.c, { asset_ids: [s.a] });
    expect(single.statusCode).toBe(200);
    expect((await fetchUrl(single.json().direct_url)).statusCode).toBe(200);
    // A board: the editor's zip holds the other asset and a note naming the one left out.
    const edZip = await download(s.m.ed.client, { board_ids: [s.board] });
    expect(edZip.statusCode).toBe(200);
    const body = (await fetchUrl(edZip.json().download_url)).rawPayload.toString("latin1");
    expect(body).toContain(RIGHTS_MESSAGES.zipNoteName);
    expect(body).toContain("only ADMINs can download it");
    const adminZip = (await fetchUrl((await download(s.c, { board_ids: [s.board] })).json().download_url)).rawPayload;
    expect(adminZip.toString("latin1")).not.toContain(RIGHTS_MESSAGES.zipNoteName);
    expect(adminZip.toString("latin1").match(/image-\d+\.png/g)?.length).toBe(4); // two files, two headers each
  });
});

describe("rights routes for the gate", () => {
  it("GET refuses a bad asset id with 422", async () => {
    const s = await setup();
    expect((await s.c.get(`/workspaces/${s.ws}/assets/not-a-uuid/rights`)).statusCode).toBe(422);
  });
});
