import type { ShareLink } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

async function setup() {
  const w = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
  const board = (await w.admin.client.post(`/workspaces/${w.ws.id}/boards`, { name: "Launch" })).json().id as string;
  const asset = (
    await env.rt.db
      .insertInto("assets")
      .values({ workspace_id: w.ws.id, name: "hero.jpg", status: "COMPLETED", is_temp: false })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  await env.rt.db.insertInto("board_assets").values({ board_id: board, asset_id: asset }).execute();
  return { ...w, board, asset };
}

describe("share links (management)", () => {
  it("gets or creates one link per content with the spec's defaults and a 256-bit token; the same link again", async () => {
    const { ws, members, board, asset } = await setup();
    const editor = members.EDITOR!.client;
    const url = `/workspaces/${ws.id}/share/asset/${asset}?board_id=${board}`;
    const link = (await editor.get(url)).json() as ShareLink;
    expect(link).toMatchObject({
      content_type: "asset",
      object_id: asset,
      board_id: board,
      allow_commenting: true,
      show_comments: true,
      show_custom_fields: true,
      allow_editing_custom_fields: false,
      allow_downloads: false,
      is_active: true,
      has_password: false,
      expires_at: null,
    });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.path).toBe(`/s/${link.token}`);
    expect(((await editor.get(url)).json() as ShareLink).id).toBe(link.id);
    const boardLink = (await editor.get(`/workspaces/${ws.id}/share/board/${board}`)).json() as ShareLink;
    expect(boardLink.id).not.toBe(link.id);
  });

  it("an asset needs its board, also to update and delete; the asset must be in that board", async () => {
    const { ws, admin, asset } = await setup();
    for (const res of [
      await admin.client.get(`/workspaces/${ws.id}/share/asset/${asset}`),
      await admin.client.put(`/workspaces/${ws.id}/share/asset/${asset}`, { allow_downloads: true }),
      await admin.client.del(`/workspaces/${ws.id}/share/asset/${asset}`),
    ]) {
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toBe("board_id is required when sharing assets");
    }
    const other = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Other" })).json().id;
    expect((await admin.client.get(`/workspaces/${ws.id}/share/asset/${asset}?board_id=${other}`)).statusCode).toBe(
      404,
    );
  });

  it("updates flags, expiry and a password that is never answered; editing fields needs them shown", async () => {
    const { ws, admin, board } = await setup();
    const url = `/workspaces/${ws.id}/share/board/${board}`;
    const set = (body: Record<string, unknown>) => admin.client.put(url, body);
    const updated = (
      await set({ allow_downloads: true, expires_at: "2030-01-01T00:00:00Z", password: "open sesame" })
    ).json();
    expect(updated).toMatchObject({
      allow_downloads: true,
      has_password: true,
      expires_at: "2030-01-01T00:00:00.000Z",
    });
    expect(JSON.stringify(updated)).not.toContain("open sesame");
    const row = await env.rt.db
      .selectFrom("share_links")
      .select(["password_hash", "password_version"])
      .where("id", "=", updated.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_version).toBe(1);
    expect((await set({ show_custom_fields: false, allow_editing_custom_fields: true })).statusCode).toBe(422);
    const cleared = (await set({ password: null, expires_at: null, is_active: false })).json();
    expect(cleared).toMatchObject({ has_password: false, expires_at: null, is_active: false });
    expect((await set({ allow_downloads: "yes" })).statusCode).toBe(422);
    expect((await admin.client.del(url)).json()).toEqual({ status: "ok" });
    expect((await admin.client.del(url)).statusCode).toBe(404);
  });

  it("the spec's client sends board_id in every PUT: null (or absent) for a board's own link; an asset's still needs one", async () => {
    const { ws, admin, board, asset } = await setup();
    const boardUrl = `/workspaces/${ws.id}/share/board/${board}`;
    const asNull = await admin.client.put(boardUrl, { board_id: null, allow_downloads: true });
    expect(asNull.statusCode).toBe(200);
    expect(asNull.json()).toMatchObject({
      content_type: "board",
      object_id: board,
      board_id: null,
      allow_downloads: true,
    });
    const absent = await admin.client.put(boardUrl, { allow_downloads: false });
    expect(absent.statusCode).toBe(200);
    expect(absent.json()).toMatchObject({ id: asNull.json().id, allow_downloads: false });
    const assetUrl = `/workspaces/${ws.id}/share/asset/${asset}`;
    for (const body of [{ board_id: null }, {}]) {
      const refused = await admin.client.put(assetUrl, { ...body, allow_downloads: true });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail).toBe("board_id is required when sharing assets");
    }
    expect((await admin.client.put(assetUrl, { board_id: board, allow_downloads: true })).json()).toMatchObject({
      board_id: board,
      allow_downloads: true,
    });
  });

  it("a COMMENTER cannot manage links; an outsider gets 404", async () => {
    const { ws, members, board, asset } = await setup();
    const commenter = members.COMMENTER!.client;
    const outsider = (await workspaceWith(env)).admin.client;
    const urls = [
      `/workspaces/${ws.id}/share/board/${board}`,
      `/workspaces/${ws.id}/share/asset/${asset}?board_id=${board}`,
    ];
    for (const url of urls) {
      expect((await commenter.get(url)).statusCode).toBe(403);
      expect((await commenter.put(url, { board_id: board, allow_downloads: true })).statusCode).toBe(403);
      expect((await commenter.del(url)).statusCode).toBe(403);
      expect((await outsider.get(url)).statusCode).toBe(404);
      expect((await outsider.put(url, { board_id: board })).statusCode).toBe(404);
      expect((await outsider.del(url)).statusCode).toBe(404);
    }
  });
});
