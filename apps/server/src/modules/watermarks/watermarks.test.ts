import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Asset, SharedPayload, ShareLink, WatermarkedVideo } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPatternVideo, textPdf } from "../../../test/fixtures.ts";
import {
  Client,
  createTestEnv,
  requestUrl,
  type TestEnv,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";
import { png } from "../../../test/versions.ts";
import { mediaUrlsIn, plainPathOf, regionDifference, videoFrame } from "../../../test/watermark-pixels.ts";

let env: TestEnv;
let tmp: string;
beforeAll(async () => {
  env = await createTestEnv();
  tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-wm-test-"));
});
afterAll(async () => {
  await env.close();
  await rm(tmp, { recursive: true, force: true });
});

const MARK = {
  kind: "text",
  text: "CONFIDENTIAL {visitor}",
  position: "center",
  opacity: 1,
  size: 70,
  apply_to_downloads: true,
};

/** A board with a picture, a two-page PDF and a 2 s clip, processed; its link allows downloads and versions. */
async function setup() {
  const w = await workspaceWith(env, ["COMMENTER"]);
  const c = w.admin.client;
  const ws = w.ws.id;
  const board = (await c.post(`/workspaces/${ws}/boards`, { name: "Press kit" })).json().id as string;
  const image = await uploadBytes(c, ws, "hero.png", await png("#3060c0", 640, 400), board);
  const pdf = await uploadBytes(c, ws, "brief.pdf", textPdf(2), board);
  const clipFile = path.join(tmp, `${randomUUID()}.mp4`);
  await testPatternVideo(clipFile, "color=c=0x406080:size=320x240:rate=10:duration=2");
  const video = await uploadBytes(c, ws, "clip.mp4", await readFile(clipFile), board);
  for (const id of [image, pdf, video]) expect((await waitForAsset(c, ws, id)).status).toBe("COMPLETED");
  const put = (body: Record<string, unknown>, who = c) => who.put(`/workspaces/${ws}/share/board/${board}`, body);
  return { ...w, c, ws, board, image, pdf, video, put };
}

/** Every public answer of a board link: the payload, the listing, each asset, its versions, the zip. */
async function publicAnswers(v: Client, token: string, headers: Record<string, string> = {}) {
  const get = (url: string) => v.request("GET", url, undefined, { headers });
  const payload = await get(`/share/${token}`);
  expect(payload.statusCode).toBe(200);
  const listing = (await get(`/share/${token}/assets?page=1&page_size=50`)).json() as { data: Asset[] };
  const answers: unknown[] = [payload.json(), listing];
  for (const a of listing.data) {
    answers.push((await get(`/share/${token}/assets/${a.id}`)).json());
    answers.push((await get(`/share/${token}/assets/${a.id}/versions`)).json());
  }
  answers.push((await v.post(`/share/${token}/download`, {})).json());
  return { answers, listing: listing.data, payload: payload.json() as SharedPayload };
}

/** Waits (polling the route the viewer polls) until the watermarked copy of a video is made. */
async function readyVideo(v: Client, token: string, assetId: string, headers: Record<string, string> = {}) {
  for (;;) {
    const r = await v.request("GET", `/share/${token}/assets/${assetId}/watermarked-video`, undefined, { headers });
    expect(r.statusCode).toBe(200);
    const body = r.json() as WatermarkedVideo;
    expect(body.state).not.toBe("failed");
    if (body.state === "ready") return body;
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

const zipEntries = async (body: Buffer) => {
  const file = path.join(tmp, `${randomUUID()}.zip`);
  await writeFile(file, body);
  const names = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).split("\n").filter(Boolean);
  return names.map((name) => ({ name, data: execFileSync("unzip", ["-p", file, name]) }));
};

describe("watermarks on what share-link visitors see (issue 33)", () => {
  it("no URL in any public answer serves an unwatermarked picture: pixels, pages, video, downloads, zip", async () => {
    const s = await setup();
    expect((await s.put({ allow_downloads: true, show_versions: true, watermark: MARK })).statusCode).toBe(200);
    const link = (await s.c.get(`/workspaces/${s.ws}/share/board/${s.board}`)).json() as ShareLink;
    expect(link.watermark).toMatchObject(MARK);
    const v = new Client(env.app);
    const { answers, listing, payload } = await publicAnswers(v, link.token);
    expect(payload.share_settings.watermarked).toBe(true);
    // No scrub-bar sprite: its frames would be the plain video's.
    for (const a of listing) expect(a.sprite).toBeNull();
    const urls = new Set<string>();
    for (const a of answers) mediaUrlsIn(a, urls);
    const media = [...urls].filter((u) => u.startsWith("/media/"));
    // Thumbnails and grids of three assets, two PDF pages, the video's web copy, three originals.
    expect(media.length).toBeGreaterThanOrEqual(9);
    const video = listing.find((a) => a.id === s.video)!;
    await readyVideo(v, link.token, s.video);
    let compared = 0;
    for (const url of urls) {
      if (url.includes("/downloads/zip")) {
        const zip = await requestUrl(env.app, "GET", url);
        expect(zip.statusCode).toBe(200);
        const entries = await zipEntries(zip.rawPayload);
        const hero = entries.find((e) => e.name.endsWith("hero.png"))!;
        expect(await regionDifference(hero.data, await png("#3060c0", 640, 400))).toBeGreaterThan(5);
        const brief = entries.find((e) => e.name.endsWith("brief.pdf"))!;
        expect(brief.data.equals(textPdf(2))).toBe(false);
        compared++;
        continue;
      }
      // Every media URL handed to this visitor names the watermarked copy.
      expect(url, url).toMatch(/\/wm\/[0-9a-f]{16}\./);
      const got = await requestUrl(env.app, "GET", url);
      expect(got.statusCode, url).toBe(200);
      const plain = await s.c.get(plainPathOf(url));
      expect(plain.statusCode).toBe(200);
      const type = got.headers["content-type"] ?? "";
      if (url.includes("/original") && type === "video/mp4") {
        // The original of a file that takes no stamp (the clip): as the link's download rules allow.
        expect(got.rawPayload.equals(plain.rawPayload)).toBe(true);
      } else if (type.startsWith("image/")) {
        expect(await regionDifference(got.rawPayload, plain.rawPayload), url).toBeGreaterThan(5);
      } else if (type === "video/mp4") {
        const diff = await regionDifference(await videoFrame(got.rawPayload), await videoFrame(plain.rawPayload));
        expect(diff, url).toBeGreaterThan(5);
      } else if (type === "application/pdf") {
        expect(got.rawPayload.equals(plain.rawPayload)).toBe(false);
        expect(got.rawPayload.toString("latin1")).toContain("/Image");
      } else {
        throw new Error(`${url} served ${type}`);
      }
      compared++;
    }
    expect(compared).toBe(urls.size);
    expect(video.video_url).toContain("/wm/");
  }, 180_000); // a clip processed and burned in on a busy machine

  it("a guessed or earlier plain URL is refused; members see plain; {visitor} names the visitor", async () => {
    const s = await setup();
    const before = new Client(env.app);
    const link = (await s.c.get(`/workspaces/${s.ws}/share/board/${s.board}`)).json() as ShareLink;
    const plainAsset = (await before.get(`/share/${link.token}/assets/${s.image}`)).json() as Asset;
    expect(plainAsset.thumbnail_url).not.toContain("/wm/");
    expect((await requestUrl(env.app, "GET", plainAsset.thumbnail_url!)).statusCode).toBe(200);
    await s.put({ watermark: MARK });
    // A URL handed out before the watermark (signed for the link): refused now.
    expect((await requestUrl(env.app, "GET", plainAsset.thumbnail_url!)).statusCode).toBe(403);
    // A plain path without any signature: nothing (no session).
    expect((await requestUrl(env.app, "GET", plainPathOf(plainAsset.thumbnail_url!))).statusCode).toBe(404);
    // A member's own answer: plain URLs, plain pixels; a watermarked path is nothing to a member.
    const mine = (await s.c.get(`/workspaces/${s.ws}/assets/${s.image}`)).json() as Asset;
    expect(mine.thumbnail_url).not.toContain("/wm/");
    const v = new Client(env.app);
    const ada = { "x-share-visitor": encodeURIComponent("Ada Lovelace") };
    const seen = (
      await v.request("GET", `/share/${link.token}/assets/${s.image}`, undefined, { headers: ada })
    ).json() as Asset;
    const anon = (await v.get(`/share/${link.token}/assets/${s.image}`)).json() as Asset;
    expect(plainPathOf(seen.thumbnail_url!)).toBe(plainPathOf(mine.thumbnail_url!));
    expect((await s.c.get(seen.thumbnail_url!.split("?")[0]!)).statusCode).toBe(404);
    const [forAda, forGuest] = await Promise.all([
      requestUrl(env.app, "GET", seen.thumbnail_url!),
      requestUrl(env.app, "GET", anon.thumbnail_url!),
    ]);
    expect(await regionDifference(forAda.rawPayload, forGuest.rawPayload)).toBeGreaterThan(5);
  }, 180_000); // a clip processed and burned in on a busy machine

  it("changing the watermark makes new renditions, refuses the old URLs and purges the old copies", async () => {
    const s = await setup();
    await s.put({ watermark: MARK });
    const token = ((await s.c.get(`/workspaces/${s.ws}/share/board/${s.board}`)).json() as ShareLink).token;
    const v = new Client(env.app);
    const one = (await v.get(`/share/${token}/assets/${s.pdf}`)).json() as Asset;
    const pageUrl = one.pages[0]!.url;
    // Two visitors at once: one copy made, both served it.
    const [x, y] = await Promise.all([requestUrl(env.app, "GET", pageUrl), requestUrl(env.app, "GET", pageUrl)]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(x.rawPayload.equals(y.rawPayload)).toBe(true);
    const linkId = (await s.c.get(`/workspaces/${s.ws}/share/board/${s.board}`)).json().id as string;
    const rows = () => env.rt.db.selectFrom("watermark_renditions").selectAll().where("link_id", "=", linkId).execute();
    const old = await rows();
    expect(old).toHaveLength(1);

    await s.put({ watermark: { ...MARK, text: "DRAFT {link} {date}", position: "tiled", opacity: 0.8, size: 30 } });
    expect((await requestUrl(env.app, "GET", pageUrl)).statusCode).toBe(404);
    const two = (await v.get(`/share/${token}/assets/${s.pdf}`)).json() as Asset;
    expect(two.pages[0]!.url).not.toBe(pageUrl);
    const now = await requestUrl(env.app, "GET", two.pages[0]!.url);
    expect(now.statusCode).toBe(200);
    expect(now.rawPayload.equals(x.rawPayload)).toBe(false);
    const plainPage = await s.c.get(plainPathOf(two.pages[0]!.url));
    // Thin tiled lines: less of the region changes than under one big centred mark, but far more than a re-encode's 0.5.
    expect(await regionDifference(now.rawPayload, plainPage.rawPayload)).toBeGreaterThan(1.5);

    // The old copy goes with the purge (sent on the change; run here to wait for it).
    await env.rt.services.watermarks.purge();
    expect((await rows()).map((r) => r.key)).not.toContain(old[0]!.key);
    expect(await env.rt.store.stat(old[0]!.key)).toBeNull();

    // No watermark any more: plain URLs again.
    await s.put({ watermark: null });
    const plain = (await v.get(`/share/${token}`)).json() as SharedPayload;
    expect(plain.share_settings.watermarked).toBe(false);
    const three = (await v.get(`/share/${token}/assets/${s.pdf}`)).json() as Asset;
    expect(three.pages[0]!.url).not.toContain("/wm/");
  }, 180_000); // a clip processed and burned in on a busy machine

  it("only ADMIN and EDITOR set a watermark (COMMENTER 403, outsider 404); bad settings answer 422", async () => {
    const s = await setup();
    const commenter = s.members.COMMENTER!.client;
    expect((await s.put({ watermark: MARK }, commenter)).statusCode).toBe(403);
    const outsider = (await workspaceWith(env)).admin.client;
    expect((await s.put({ watermark: MARK }, outsider)).statusCode).toBe(404);
    const loud = await s.put({ watermark: { ...MARK, opacity: 5 } });
    expect(loud.statusCode).toBe(422);
    expect(JSON.stringify(loud.json())).toContain("opacity");
    const empty = await s.put({ watermark: { ...MARK, text: " " } });
    expect(empty.statusCode).toBe(422);
    expect(JSON.stringify(empty.json())).toContain("text");
    // The video route: only for a watermarking link's video.
    const token = ((await s.c.get(`/workspaces/${s.ws}/share/board/${s.board}`)).json() as ShareLink).token;
    const v = new Client(env.app);
    expect((await v.get(`/share/${token}/assets/${s.video}/watermarked-video`)).statusCode).toBe(404);
    await s.put({ watermark: MARK });
    expect((await v.get(`/share/${token}/assets/${s.image}/watermarked-video`)).statusCode).toBe(404);
    expect((await v.get(`/share/${token}/assets/not-an-id/watermarked-video`)).statusCode).toBe(422);
    // Before its copy is made the video's URL serves nothing (never the plain clip).
    const clip = (await v.get(`/share/${token}/assets/${s.video}`)).json() as Asset;
    const early = await requestUrl(env.app, "GET", clip.video_url!);
    expect([200, 404]).toContain(early.statusCode);
    if (early.statusCode === 200) {
      const plain = await s.c.get(plainPathOf(clip.video_url!));
      expect(early.rawPayload.equals(plain.rawPayload)).toBe(false);
    }
  }, 180_000);
});
