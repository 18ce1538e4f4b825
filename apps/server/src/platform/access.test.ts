import { randomUUID } from "node:crypto";
import { canAdmin, canEdit, DEFAULT_SHARE_FLAGS, ROLE_ABILITIES, ROLES, roleCan } from "@hangar/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, type TestEnv, uploadBytes, waitForAsset, workspaceWith } from "../../test/harness.ts";
import { ASSET } from "../modules/assets/policy.ts";
import { BOARD } from "../modules/boards/policy.ts";
import { WORKSPACE } from "../modules/workspaces/policy.ts";
import { allows, memberGrant } from "./access.ts";
import type { VisitorActor } from "./actor.ts";
import { MUTATING } from "./http.ts";

/**
 * The access layer: the role table, share-link visitors (built by hand: links do not exist yet, so
 * the harness plugs a resolver into the session hook that turns a test header into a visitor), and
 * signed URLs re-checked against the current state whenever they are fetched.
 */
const visitors = new Map<string, VisitorActor>();
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv(
    {},
    {
      resolveActor: (req) => {
        const key = req.headers["x-test-visitor"];
        return typeof key === "string" ? (visitors.get(key) ?? null) : null;
      },
    },
  );
});
afterAll(() => env.close());

function visitor(workspaceId: string, content: VisitorActor["content"], flags: Partial<VisitorActor["flags"]> = {}) {
  const v: VisitorActor = {
    kind: "visitor",
    linkId: randomUUID(),
    workspaceId,
    content,
    flags: { ...DEFAULT_SHARE_FLAGS, ...flags },
    unlocked: true,
  };
  visitors.set(v.linkId, v);
  return v;
}
const png = (seed: number) =>
  sharp({ create: { width: 16, height: 16, channels: 3, background: { r: seed % 256, g: 40, b: 90 } } })
    .png()
    .toBuffer();
const mkBoard = async (c: Client, ws: string, name: string, parent_id: string | null = null) =>
  (await c.post(`/workspaces/${ws}/boards`, { name, parent_id })).json().id as string;
const fill = (url: string, workspaceId: string) =>
  url.replace(/:(\w+)/g, (_m, name: string) => (name === "id" ? workspaceId : randomUUID()));

describe("the role table", () => {
  it("is the one source of canEdit/canAdmin and of every policy's role check", () => {
    expect(ROLE_ABILITIES.ADMIN).toEqual(["view", "comment", "edit", "admin"]);
    expect(ROLE_ABILITIES.COMMENTER).toEqual(["view", "comment"]);
    for (const role of ROLES) {
      expect(canEdit(role)).toBe(roleCan(role, "edit"));
      expect(canAdmin(role)).toBe(roleCan(role, "admin"));
      const g = memberGrant(randomUUID(), role);
      expect(allows(g, ASSET.edit)).toBe(role !== "COMMENTER");
      expect(allows(g, ASSET.comment)).toBe(true);
      expect(allows(g, ASSET.download)).toBe(true);
      expect(allows(g, WORKSPACE.rename)).toBe(role === "ADMIN");
    }
    expect(canEdit(null)).toBe(false);
    expect(roleCan(undefined, "view")).toBe(false);
  });

  it("lets a visitor do what the link's flags allow, never edit", () => {
    const v = visitor(randomUUID(), { kind: "asset", id: randomUUID() });
    const g = { kind: "visitor" as const, workspaceId: v.workspaceId, visitor: v };
    expect(allows(g, ASSET.view)).toBe(true);
    expect(allows(g, ASSET.comment)).toBe(true); // default: allow_commenting
    expect(allows(g, ASSET.download)).toBe(false); // default: no downloads
    expect(allows(g, ASSET.edit)).toBe(false);
    expect(allows(g, BOARD.edit)).toBe(false);
    expect(allows({ ...g, visitor: { ...v, flags: { ...v.flags, allow_downloads: true } } }, ASSET.download)).toBe(
      true,
    );
    expect(allows({ ...g, visitor: { ...v, unlocked: false } }, ASSET.view)).toBe(false);
  });
});

describe("share-link visitors", () => {
  it("answer 404 on every workspace route, their own workspace included", async () => {
    const { ws, admin } = await workspaceWith(env);
    const b = await mkBoard(admin.client, ws.id, "Shared");
    const v = visitor(ws.id, { kind: "board", id: b }, { allow_downloads: true, allow_editing_custom_fields: true });
    const client = new Client(env.app);
    await client.fetchCsrf();
    const scoped = env.app.routeTable.filter((r) => r.access === "workspace");
    expect(scoped.length).toBeGreaterThan(20);
    for (const r of scoped) {
      for (const id of [ws.id, randomUUID()]) {
        const res = await client.request(r.method, fill(r.url, id), MUTATING.has(r.method) ? {} : undefined, {
          headers: { "x-test-visitor": v.linkId },
        });
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(404);
      }
    }
  });

  it("see assets in the shared board's subtree only, download only when the link allows it", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const top = await mkBoard(c, ws.id, "Top");
    const child = await mkBoard(c, ws.id, "Child", top);
    const other = await mkBoard(c, ws.id, "Other");
    const inChild = await uploadBytes(c, ws.id, "in.png", await png(1), child);
    const outside = await uploadBytes(c, ws.id, "out.png", await png(2), other);
    const asset = (assetId: string) => ({ kind: "asset" as const, workspaceId: ws.id, assetId });
    const access = env.rt.access;

    const v = visitor(ws.id, { kind: "board", id: top });
    await expect(access.require(v, ASSET.view, asset(inChild))).resolves.toMatchObject({ kind: "visitor" });
    await expect(
      access.require(v, BOARD.view, { kind: "board", workspaceId: ws.id, boardId: child }),
    ).resolves.toBeTruthy();
    await expect(access.require(v, ASSET.view, asset(outside))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      access.require(v, BOARD.view, { kind: "board", workspaceId: ws.id, boardId: other }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(access.require(v, ASSET.download, asset(inChild))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(access.require(v, ASSET.edit, asset(inChild))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(access.require(v, WORKSPACE.view, { kind: "workspace", workspaceId: ws.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const loaded = visitor(ws.id, { kind: "board", id: top }, { allow_downloads: true });
    await expect(access.require(loaded, ASSET.download, asset(inChild))).resolves.toBeTruthy();
    // Another workspace's link, a locked link, a link to the child board: nothing above or beside.
    const foreign = { ...visitor(randomUUID(), { kind: "board", id: top }) };
    await expect(access.require(foreign, ASSET.view, asset(inChild))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(access.require({ ...v, unlocked: false }, ASSET.view, asset(inChild))).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const low = visitor(ws.id, { kind: "board", id: child });
    await expect(
      access.require(low, BOARD.view, { kind: "board", workspaceId: ws.id, boardId: top }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // An asset link: that asset, nothing else; gone once it is in Recently deleted.
    const one = visitor(ws.id, { kind: "asset", id: outside });
    await expect(access.require(one, ASSET.view, asset(outside))).resolves.toBeTruthy();
    await expect(access.require(one, ASSET.view, asset(inChild))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await c.del(`/workspaces/${ws.id}/assets`, { asset_ids: [outside] });
    await expect(access.require(one, ASSET.view, asset(outside))).rejects.toMatchObject({ code: "NOT_FOUND" });
    // Media through the same check: the visitor's session-less fetch of a rendition outside the link is 404.
    const done = await waitForAsset(c, ws.id, inChild);
    const outsiderMedia = await new Client(env.app).request("GET", done.thumbnail_url, undefined, {
      headers: { "x-test-visitor": low.linkId },
    });
    expect(outsiderMedia.statusCode).toBe(200);
    const lowOther = visitor(ws.id, { kind: "board", id: other });
    const refused = await new Client(env.app).request("GET", done.thumbnail_url, undefined, {
      headers: { "x-test-visitor": lowOther.linkId },
    });
    expect(refused.statusCode).toBe(404);
  });
});

describe("abilities in answers", () => {
  it("follow the caller's role, and change when the role does (the cached asset too)", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const id = await uploadBytes(admin.client, ws.id, "a.png", await png(3));
    await waitForAsset(admin.client, ws.id, id);
    const commenter = members.COMMENTER!;
    const get = async () => (await commenter.client.get(`/workspaces/${ws.id}/assets/${id}`)).json().abilities;
    expect(await get()).toEqual({ edit: false, delete: false, comment: true, share: false, download: true });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json().abilities.edit).toBe(true);
    expect((await commenter.client.get(`/workspaces/${ws.id}`)).json().abilities).toMatchObject({
      upload: false,
      admin: false,
    });
    const boards = (await commenter.client.get(`/workspaces/${ws.id}/boards?recursive=true`)).json();
    expect(boards).toEqual([]);
    await mkBoard(admin.client, ws.id, "B");
    expect((await commenter.client.get(`/workspaces/${ws.id}/boards`)).json()[0].abilities).toEqual({
      edit: false,
      delete: false,
      share: false,
    });
    const listed = (await commenter.client.post(`/workspaces/${ws.id}/assets`, {})).json().data[0];
    expect(listed.abilities.edit).toBe(false);
    const promoted = await admin.client.put(`/workspaces/${ws.id}/members/${commenter.user.id}`, { role: "EDITOR" });
    expect(promoted.statusCode).toBe(200);
    expect(await get()).toEqual({ edit: true, delete: true, comment: true, share: true, download: true });
  });
});

describe("a commenter cannot edit", () => {
  it("answers 403 on every editing route family", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const b = await mkBoard(admin.client, ws.id, "B");
    const id = await uploadBytes(admin.client, ws.id, "a.png", await png(4));
    const c = members.COMMENTER!.client;
    const w = `/workspaces/${ws.id}`;
    const tries: Array<[string, string, Record<string, unknown> | undefined]> = [
      ["PUT", `${w}/assets/${id}`, { name: "x" }],
      ["POST", `${w}/assets/tags`, { asset_ids: [id], tags: ["t"] }],
      ["POST", `${w}/assets/move`, { asset_ids: [id], destination_id: b }],
      ["DELETE", `${w}/assets`, { asset_ids: [id] }],
      ["POST", `${w}/boards`, { name: "N" }],
      ["PUT", `${w}/boards/${b}`, { name: "N" }],
      ["DELETE", `${w}/boards/${b}`, undefined],
      ["POST", `${w}/boards/${b}/assets`, { asset_ids: [id] }],
      ["POST", `${w}/assets/upload`, { name: "n.bin", size: 10 }],
      ["POST", `${w}/recently-deleted/restore`, { asset_ids: [id] }],
      ["POST", `${w}/invites`, { email: "x@example.test" }],
      ["PUT", `${w}`, { name: "N" }],
    ];
    for (const [method, url, body] of tries) {
      const res = await c.request(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await admin.client.get(`${w}/assets/${id}`)).json().name).toBe("a.png");
  });
});
