import type { Asset, SharedPayload, ShareFlags, ShareLink } from "@hangar/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  type TestEnv,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";
import { png, uploadWith } from "../../../test/versions.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" });
});
afterAll(() => env.close());

/** Asks `read` again until `done` holds (the workers process in their own time). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Texts and numbers a visitor may see only as the flags allow (or never), planted where they could leak. */
const MARK = {
  privateBoard: "Board-Nobody-Shared",
  fieldText: "Field-Text-Marker",
  option: "Option-Label-Marker",
  color: "#a1b2c3",
  lat: 48.85837,
  lon: 2.294481,
  ownThread: "Own-Context-Thread",
  ownReply: "Own-Context-Reply",
  otherThread: "Other-Board-Thread",
  otherReply: "Other-Board-Reply",
  globalThread: "No-Board-Thread",
};

/**
 * An asset filed in the shared board "Launch" and in a private board it was uploaded to, with field
 * values, GPS, and threads in Launch's context, in the private board's and in none.
 */
async function setup() {
  const { ws, admin } = await workspaceWith(env);
  const c = admin.client;
  const w = ws.id as string;
  const launch = (await c.post(`/workspaces/${w}/boards`, { name: "Launch" })).json().id as string;
  const hidden = (await c.post(`/workspaces/${w}/boards`, { name: MARK.privateBoard })).json().id as string;
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#884422" } })
    .jpeg()
    .toBuffer();
  const asset = await uploadBytes(c, w, "hero.jpg", jpeg, hidden);
  expect((await waitForAsset(c, w, asset)).status).toBe("COMPLETED");
  expect((await c.post(`/workspaces/${w}/boards/${launch}/assets`, { asset_ids: [asset] })).statusCode).toBe(200);
  await env.rt.db
    .updateTable("assets")
    .set({ exif: JSON.stringify({}), gps_latitude: MARK.lat, gps_longitude: MARK.lon, gps_altitude: 35 })
    .where("id", "=", asset)
    .execute();

  const text = (await c.post(`/workspaces/${w}/fields`, { title: "Notes", field_type: "TEXT" })).json().id as string;
  const select = (await c.post(`/workspaces/${w}/fields`, { title: "Status", field_type: "SINGLE_SELECT" })).json()
    .id as string;
  const opt = (
    await c.post(`/workspaces/${w}/custom-fields/${select}/options`, { label: MARK.option, color: MARK.color })
  ).json().id as string;
  for (const [field, value] of [
    [text, { text_value: MARK.fieldText }],
    [select, { option_value_id: opt }],
  ] as const)
    expect((await c.post(`/workspaces/${w}/field-values/${field}`, { asset_ids: [asset], ...value })).statusCode).toBe(
      200,
    );

  const comment = async (text: string, board_id: string | null, parent_id?: string) => {
    const res = await c.post(`/workspaces/${w}/comments`, {
      content_type: "asset",
      object_id: asset,
      text,
      board_id,
      ...(parent_id ? { parent_id } : {}),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const own = await comment(MARK.ownThread, launch);
  await comment(MARK.ownReply, launch, own);
  const other = await comment(MARK.otherThread, hidden);
  await comment(MARK.otherReply, hidden, other);
  const global = await comment(MARK.globalThread, null);
  return { c, w, launch, hidden, asset, fields: [text, select, opt], own, other, global };
}

const FLAGS = [
  "allow_commenting",
  "show_comments",
  "show_custom_fields",
  "allow_editing_custom_fields",
  "allow_downloads",
] as const;
/** Every combination of the flags a link may have (editing fields needs them shown: 24 of 32). */
const combinations: ShareFlags[] = Array.from({ length: 32 }, (_, n) =>
  Object.fromEntries(FLAGS.map((f, i) => [f, (n & (1 << i)) !== 0])),
).filter((f) => !f.allow_editing_custom_fields || f.show_custom_fields) as ShareFlags[];

describe("what a visitor receives is the link's view", () => {
  // About 250 requests each: a guard against a slow machine, not a measure.
  it.each(["asset", "board"] as const)(
    "every public answer of the %s link, for every flag combination, carries nothing the link hides",
    { timeout: 180_000 },
    async (kind) => {
      const s = await setup();
      const url =
        kind === "asset"
          ? `/workspaces/${s.w}/share/asset/${s.asset}?board_id=${s.launch}`
          : `/workspaces/${s.w}/share/board/${s.launch}`;
      const t = ((await s.c.get(url)).json() as ShareLink).token;
      const v = new Client(env.app);
      for (const flags of combinations) {
        const put = await s.c.put(`/workspaces/${s.w}/share/${kind}/${kind === "asset" ? s.asset : s.launch}`, {
          ...flags,
          board_id: kind === "asset" ? s.launch : null,
        });
        expect(put.statusCode, put.body).toBe(200);
        const answers = [
          await v.get(`/share/${t}`),
          await v.get(`/share/${t}/assets/${s.asset}`),
          await v.get(`/share/${t}/assets`),
          await v.get(`/share/${t}/board`),
          await v.get(`/share/${t}/comments?object_id=${s.asset}`),
          await v.get(`/share/${t}/comments?object_id=${s.asset}&parent_id=${s.own}`),
          await v.get(`/share/${t}/comments?object_id=${s.asset}&parent_id=${s.other}`),
          await v.get(`/share/${t}/comments?object_id=${s.asset}&parent_id=${s.global}`),
          await v.get(`/share/${t}/assets/${s.asset}/custom-fields`),
          await v.post(`/share/${t}/download`, {}),
        ];
        // The page's meta (the link preview's title and picture).
        const visit = await env.rt.services.shareVisitors.resolve({
          token: t,
          password: undefined,
          credential: undefined,
          ip: "10.1.2.3",
        });
        const preview = await env.rt.services.shared.preview(visit);
        const all = [...answers.map((a) => a.body), JSON.stringify(preview)].join("\n");
        const label = `${kind} link with ${JSON.stringify(flags)}`;
        for (const a of answers) expect(a.statusCode, `${label}: ${a.body}`).toBeLessThan(500);

        // Never: another board's name or id, its threads, threads made in no board.
        for (const never of [MARK.privateBoard, s.hidden, MARK.otherThread, MARK.otherReply, s.other, s.global])
          expect(all, label).not.toContain(never);
        expect(all, label).not.toContain(MARK.globalThread);
        // The asset as shown: its boards are the link's own only.
        const asset = answers[1]!.json();
        expect(asset.boards, label).toEqual([{ id: s.launch, name: "Launch" }]);
        expect(asset.upload_board_id, label).toBeNull();

        // Field values only where the link shows fields.
        for (const mark of [MARK.fieldText, MARK.option, MARK.color])
          if (flags.show_custom_fields) expect(all, label).toContain(mark);
          else expect(all, label).not.toContain(mark);
        if (!flags.show_custom_fields) for (const id of s.fields) expect(all, label).not.toContain(id);
        expect(asset.field_chips.length, label).toBe(flags.show_custom_fields ? 2 : 0);

        // Comments only where shown, and then the link's board's only (its count too).
        for (const mark of [MARK.ownThread, MARK.ownReply])
          if (flags.show_comments) expect(all, label).toContain(mark);
          else expect(all, label).not.toContain(mark);
        expect(asset.open_comment_count, label).toBe(flags.show_comments ? 1 : 0);

        // Location (and the original) only where downloads are allowed.
        for (const n of [String(MARK.lat), String(MARK.lon)])
          if (flags.allow_downloads) expect(all, label).toContain(n);
          else expect(all, label).not.toContain(n);
        expect(asset.url === null, label).toBe(!flags.allow_downloads);
      }
    },
  );

  it.each(["asset", "board"] as const)(
    "the %s link shows one version, the current one, unless it shows versions",
    { timeout: 120_000 },
    async (kind) => {
      const s = await setup();
      const v2 = await uploadWith(s.c, s.w, { name: "hero-2.jpg", version_of: s.asset }, await png("#224488"));
      // A third on its way: still nothing a visitor hears of.
      await s.c.post(`/workspaces/${s.w}/assets/upload`, { name: "hero-3.jpg", size: 100, version_of: s.asset });
      const member = await until(
        async () => (await s.c.get(`/workspaces/${s.w}/assets/${s.asset}`)).json() as Asset,
        (a) => a.current_version?.id === v2.version_id,
      );
      expect(member).toMatchObject({ version_count: 2, newer_version: { number: 3 } });
      const path = kind === "asset" ? `asset/${s.asset}` : `board/${s.launch}`;
      const board_id = kind === "asset" ? s.launch : null;
      const t = (
        (
          await s.c.get(`/workspaces/${s.w}/share/${path}${board_id ? `?board_id=${board_id}` : ""}`)
        ).json() as ShareLink
      ).token;
      const v = new Client(env.app);
      const shown = async () => {
        const payload = (await v.get(`/share/${t}`)).json() as SharedPayload;
        const one = (await v.get(`/share/${t}/assets/${s.asset}`)).json() as Asset;
        // An asset link's payload carries the asset; a board link's pages list it.
        const listed = kind === "board" ? ((await v.get(`/share/${t}/assets`)).json() as { data: Asset[] }).data : [];
        const all = [...(payload.asset ? [payload.asset] : []), one, ...listed.filter((a) => a.id === s.asset)];
        expect(all).toHaveLength(2);
        return all;
      };
      for (const a of await shown()) {
        expect(a).toMatchObject({ version_count: 1, current_version: { id: v2.version_id }, newer_version: null });
      }
      const on = await s.c.put(`/workspaces/${s.w}/share/${path}`, { show_versions: true, board_id });
      expect(on.statusCode, on.body).toBe(200);
      for (const a of await shown()) {
        expect(a).toMatchObject({
          version_count: 2,
          current_version: { id: v2.version_id },
          newer_version: { number: 3 },
        });
      }
    },
  );

  it("a visitor cannot answer a thread of another board's context", async () => {
    const s = await setup();
    const link = (await s.c.get(`/workspaces/${s.w}/share/asset/${s.asset}?board_id=${s.launch}`)).json() as ShareLink;
    const v = new Client(env.app);
    const reply = (parent_id: string) => v.post(`/share/${link.token}/comments`, { text: "me too", parent_id });
    for (const parent of [s.other, s.global]) {
      const refused = await reply(parent);
      expect(refused.statusCode).toBe(404);
      expect(refused.body).not.toContain(MARK.otherThread);
    }
    const ok = await reply(s.own);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ board_id: s.launch, thread_id: s.own });
  });
});
