import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, signedInUser, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { png, processedAsset } from "../../../test/versions.ts";
import { purgeAuditJob } from "../../jobs/purge-audit.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

interface Event {
  id: string;
  action: string;
  actor: { kind: string; id: string | null; name: string | null };
  object: { type: string; id: string | null; name: string | null };
  changes: Record<string, unknown> | null;
  ip?: string | null;
  user_agent?: string | null;
}

async function history(c: Client, url: string): Promise<Event[]> {
  const res = await c.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** Every page of a history, by its cursor, `limit` at a time. */
async function walk(c: Client, url: string, limit: number): Promise<Event[]> {
  const out: Event[] = [];
  let cursor = "";
  for (let guard = 0; guard < 50; guard++) {
    const res = (await c.get(`${url}?limit=${limit}${cursor}`)).json();
    out.push(...res.data);
    if (!res.next_cursor) return out;
    cursor = `&cursor=${res.next_cursor}`;
  }
  throw new Error("history did not end");
}

describe("an asset's and a board's own history", () => {
  it("is read by every member (ADMIN, EDITOR, COMMENTER, a token, a read key); outsiders get 404; bad paging 422", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const board = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Matrix" })).json().id as string;
    const asset = await processedAsset(env, admin.client, ws.id, "m.png", await png("#123456"));
    const urls = [`/workspaces/${ws.id}/assets/${asset}/history`, `/workspaces/${ws.id}/boards/${board}/history`];
    const token = (await members.COMMENTER!.client.post("/users/me/tokens", { name: "reader" })).json().secret;
    const key = (
      await admin.client.post(`/workspaces/${ws.id}/api-keys`, { name: "read", scopes: ["assets:read"] })
    ).json().secret;
    const bearer = (secret: string, url: string) =>
      env.app.inject({ method: "GET", url: `/api/v1${url}`, headers: { authorization: `Bearer ${secret}` } });
    const outsider = await signedInUser(env);
    const elsewhere = await workspaceWith(env);
    for (const url of urls) {
      for (const c of [admin.client, members.EDITOR!.client, members.COMMENTER!.client])
        expect((await c.get(url)).statusCode, url).toBe(200);
      expect((await bearer(token, url)).statusCode, url).toBe(200);
      expect((await bearer(key, url)).statusCode, url).toBe(200);
      expect((await outsider.client.get(url)).statusCode, url).toBe(404);
      // Another workspace's member asking through their own workspace finds nothing there either.
      expect((await elsewhere.admin.client.get(url.replace(ws.id, elsewhere.ws.id))).statusCode).toBe(404);
      expect((await admin.client.get(`${url}?cursor=nope`)).statusCode).toBe(422);
      expect((await admin.client.get(`${url}?limit=0`)).statusCode).toBe(422);
    }
    // An id of the other kind is not an object of this one.
    expect((await admin.client.get(`/workspaces/${ws.id}/boards/${asset}/history`)).statusCode).toBe(404);
  });

  it("shows the rename, the tag and the move, newest first, paged, without addresses or secrets", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const c = admin.client;
    const from = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Inbox" })).json().id as string;
    const to = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Press kit" })).json().id as string;
    const asset = await processedAsset(env, c, ws.id, "kit.png", await png("#aa4422"));
    await c.post(`/workspaces/${ws.id}/boards/${from}/assets`, { asset_ids: [asset] });
    const editor = members.EDITOR!.client;
    expect((await editor.put(`/workspaces/${ws.id}/assets/${asset}`, { name: "kit-final.png" })).statusCode).toBe(200);
    const tagged = await editor.post(`/workspaces/${ws.id}/assets/tags`, {
      asset_ids: [asset],
      tags: ["press"],
      mode: "add",
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    const moved = await editor.post(`/workspaces/${ws.id}/assets/move`, { asset_ids: [asset], destination_id: to });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await c.put(`/workspaces/${ws.id}/boards/${to}`, { name: "Press kit 2027" })).statusCode).toBe(200);

    const url = `/workspaces/${ws.id}/assets/${asset}/history`;
    const events = await history(members.COMMENTER!.client, url);
    const actions = events.map((e) => e.action);
    const at = (action: string) => actions.indexOf(action);
    // Newest first: the move (into the new board, out of the old), the tag, the rename, the filing, the upload.
    expect(at("board.asset_added")).toBeLessThan(at("asset.tag_added"));
    expect(at("asset.tag_added")).toBeLessThan(at("asset.updated"));
    expect(at("asset.updated")).toBeLessThan(at("asset.created"));
    const rename = events.find((e) => e.action === "asset.updated")!;
    expect(rename).toMatchObject({
      actor: { kind: "member", id: members.EDITOR!.user.id },
      changes: { name: { before: "kit.png", after: "kit-final.png" } },
    });
    expect(events.find((e) => e.action === "asset.tag_added")?.changes).toEqual({ tag: "press" });
    const filings = events.filter((e) => e.action.startsWith("board.asset_"));
    expect(filings.map((e) => [e.action, e.object.name])).toEqual(
      expect.arrayContaining([
        ["board.asset_added", "Press kit"],
        ["board.asset_removed", "Inbox"],
        ["board.asset_added", "Inbox"],
      ]),
    );
    expect(events.every((e) => e.ip === undefined && e.user_agent === undefined)).toBe(true);
    expect(JSON.stringify(events)).not.toMatch(/argon2|secret_hash|password/);
    // Paged by cursor, two at a time: the same rows in the same order.
    expect((await walk(c, url, 2)).map((e) => e.id)).toEqual(events.map((e) => e.id));

    // The board's own: created, the asset moved in, renamed (its name then, before and after).
    const boardEvents = await history(c, `/workspaces/${ws.id}/boards/${to}/history`);
    expect(boardEvents.map((e) => e.action)).toEqual(["board.updated", "board.asset_added", "board.created"]);
    expect(boardEvents[0]!.changes).toEqual({ name: { before: "Press kit", after: "Press kit 2027" } });
    expect(boardEvents[1]!.changes).toEqual({ asset: { id: asset, name: "kit-final.png" } });
    const inbox = await history(c, `/workspaces/${ws.id}/boards/${from}/history`);
    expect(inbox.map((e) => e.action)).toEqual(["board.asset_removed", "board.asset_added", "board.created"]);
  });
});

describe("governance records (issue 36)", () => {
  it("records role changes and exports, keeps a year by default and purges daily", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const m = members.COMMENTER!;
    const changed = await admin.client.put(`/workspaces/${ws.id}/members/${m.user.id}`, { role: "EDITOR" });
    expect(changed.statusCode, changed.body).toBe(200);
    const asset = await processedAsset(env, admin.client, ws.id, "e.png", await png("#335577"));
    await admin.client.post(`/workspaces/${ws.id}/comments`, { content_type: "asset", object_id: asset, text: "Hi" });
    const exported = await m.client.get(`/workspaces/${ws.id}/comments/export?content_type=asset&object_id=${asset}`);
    expect(exported.statusCode).toBe(200);

    const log = (await admin.client.get(`/workspaces/${ws.id}/audit`)).json().data as Event[];
    const role = log.find((e) => e.action === "member.role_changed");
    expect(role).toMatchObject({
      actor: { kind: "member", id: admin.user.id },
      object: { id: m.user.id },
      changes: { role: { before: "COMMENTER", after: "EDITOR" } },
    });
    expect(log.find((e) => e.action === "asset.comments_exported")).toMatchObject({
      actor: { id: m.user.id },
      object: { id: asset },
    });
    const csv = await admin.client.get(`/workspaces/${ws.id}/audit/export?action=member`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain("member.role_changed");

    expect((await admin.client.get(`/workspaces/${ws.id}/audit/settings`)).json()).toEqual({ retention_days: 365 });
    const job = purgeAuditJob(async () => undefined);
    // Once a day, at a fixed minute of a fixed hour.
    expect(job.cron).toMatch(/^\d{1,2} \d{1,2} \* \* \*$/);
  });
});
