import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, PASSWORD, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { png, processedAsset } from "../../../test/versions.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

interface Event {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; name: string | null };
  action: string;
  object: { type: string; id: string | null; name: string | null };
  changes: Record<string, unknown> | null;
  ip?: string | null;
  user_agent?: string | null;
}

async function log(c: Client, ws: string, query = ""): Promise<Event[]> {
  const res = await c.get(`/workspaces/${ws}/audit${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
const find = (events: Event[], action: string, objectId?: string) =>
  events.find((e) => e.action === action && (objectId === undefined || e.object.id === objectId));

describe("the audit log", () => {
  it("records a member's change in its transaction: who, from where, the object's name then, before and after", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Spring" })).json();
    const asset = await processedAsset(env, c, ws.id, "poster.png", await png("#aa3311"));
    expect((await c.put(`/workspaces/${ws.id}/assets/${asset}`, { name: "poster-final.png" })).statusCode).toBe(200);
    expect((await c.post(`/workspaces/${ws.id}/boards/${board.id}/assets`, { asset_ids: [asset] })).statusCode).toBe(
      200,
    );
    expect((await c.del(`/workspaces/${ws.id}/boards/${board.id}`)).statusCode).toBe(200);

    const events = await log(c, ws.id);
    const renamed = find(events, "asset.updated", asset)!;
    expect(renamed).toMatchObject({
      actor: { kind: "member", id: admin.user.id, name: "Admin User" },
      object: { type: "asset", id: asset, name: "poster-final.png" },
      changes: { name: { before: "poster.png", after: "poster-final.png" } },
      ip: c.ip,
    });
    expect(find(events, "board.asset_added", board.id)).toMatchObject({
      object: { name: "Spring" },
      changes: { asset: { id: asset, name: "poster-final.png" } },
    });
    const deleted = find(events, "board.deleted", board.id)!;
    expect(deleted.object.name).toBe("Spring");
    expect(deleted.changes).toHaveProperty("deleted_at");
    // Newest first; the pipeline's own writes (processing facts) are not in the log.
    expect(events.map((e) => Number(e.id))).toEqual([...events.map((e) => Number(e.id))].sort((a, b) => b - a));
    expect(events.filter((e) => e.object.id === asset && e.actor.kind === "system")).toEqual([]);
  });

  it("names API keys, share-link visitors and outside reviewers as the actors they are", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const c = admin.client;
    const key = (await c.post(`/workspaces/${ws.id}/api-keys`, { name: "CI sync", scopes: ["admin"] })).json();
    // A key acts: no cookie, no CSRF.
    const made = await env.app.inject({
      method: "POST",
      url: `/api/v1/workspaces/${ws.id}/boards`,
      headers: { authorization: `Bearer ${key.secret}`, "user-agent": "sync-bot/1.0" },
      payload: { name: "From CI" },
    });
    expect(made.statusCode, made.body).toBe(201);

    // A visitor comments through a share link, under their given name.
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Shared" })).json().id as string;
    const asset = await processedAsset(env, c, ws.id, "shared.png", await png("#1188aa"));
    await c.post(`/workspaces/${ws.id}/boards/${board}/assets`, { asset_ids: [asset] });
    await c.get(`/workspaces/${ws.id}/share/asset/${asset}?board_id=${board}`);
    const link = (
      await c.put(`/workspaces/${ws.id}/share/asset/${asset}`, { board_id: board, allow_commenting: true })
    ).json();
    const visitor = new Client(env.app);
    const said = await visitor.post(`/share/${link.token}/comments`, { text: "Lovely", author_name: "Eve Visitor" });
    expect(said.statusCode, said.body).toBe(201);

    // An outside reviewer decides through their review link.
    const made2 = await members.EDITOR!.client.post(`/workspaces/${ws.id}/reviews`, {
      title: "Launch",
      asset_ids: [asset],
      stages: [{ rule: "all", reviewers: [{ email: "gina@example.test", name: "Gina Guest" }] }],
    });
    expect(made2.statusCode, made2.body).toBe(201);
    const review = made2.json() as {
      id: string;
      stages: Array<{ reviewers: Array<{ email: string | null; link: { token: string } | null }> }>;
    };
    const reviewer = new Client(env.app);
    const token = review.stages.flatMap((s) => s.reviewers).find((r) => r.email === "gina@example.test")!.link!.token;
    const decided = await reviewer.post(`/review/${token}/decisions`, { asset_id: asset, decision: "approved" });
    expect(decided.statusCode, decided.body).toBe(201);

    const events = await log(c, ws.id);
    expect(find(events, "board.created", made.json().id)).toMatchObject({
      actor: { kind: "api_key", id: key.id, name: "CI sync" },
      user_agent: "sync-bot/1.0",
    });
    expect(find(events, "comment.created")).toMatchObject({
      actor: { kind: "visitor", id: link.id, name: "Eve Visitor" },
      object: { name: "Lovely" },
    });
    expect(find(events, "review.decided", review.id)).toMatchObject({
      actor: { kind: "reviewer" },
      changes: { decision: "approved", asset: "shared.png" },
    });
    expect(find(events, "review.created", review.id)?.actor).toMatchObject({ kind: "member", name: "EDITOR User" });
    // The key's secret never: not its hash either.
    expect(JSON.stringify(events)).not.toContain("secret_hash");
    expect(find(events, "api_key.created", key.id)?.changes).toMatchObject({ name: { after: "CI sync" } });
  });

  it("records sign-ins, failed sign-ins, a password change (never the password) and downloads of boards", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const m = members.COMMENTER!;
    const wrong = await new Client(env.app).post("/users/login", { email: m.email, password: "not it at all" });
    expect(wrong.statusCode).toBe(401);
    const again = new Client(env.app);
    expect((await again.post("/users/login", { email: m.email, password: PASSWORD })).statusCode).toBe(200);
    const changed = await again.post("/users/change-password", {
      current_password: PASSWORD,
      new_password: "an even better horse",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const board = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Press kit" })).json().id;
    const asset = await processedAsset(env, admin.client, ws.id, "kit.png", await png("#22aa44"));
    await admin.client.post(`/workspaces/${ws.id}/boards/${board}/assets`, { asset_ids: [asset] });
    // The password change ended the other sessions: the one that made it goes on.
    const zip = await again.post(`/workspaces/${ws.id}/download`, { board_ids: [board] });
    expect(zip.statusCode, zip.body).toBe(200);

    const events = await log(admin.client, ws.id);
    expect(find(events, "account.sign_in_failed", m.user.id)).toMatchObject({ actor: { kind: "anonymous" } });
    expect(find(events, "account.signed_in", m.user.id)).toMatchObject({ actor: { kind: "member", id: m.user.id } });
    const pw = find(events, "account.updated", m.user.id)!;
    expect(pw.changes).toEqual({ password: "changed" });
    expect(find(events, "board.downloaded", board)).toMatchObject({ actor: { id: m.user.id } });
    expect(JSON.stringify(events)).not.toContain("argon2");
  });

  it("filters, pages by cursor and exports CSV (the export recorded too); only ADMINs read it", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const c = admin.client;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await c.post(`/workspaces/${ws.id}/boards`, { name: `B${i}` })).json().id);
    await members.EDITOR!.client.put(`/workspaces/${ws.id}/boards/${ids[0]}`, { name: "Renamed" });

    const byEditor = await log(c, ws.id, `?actor_id=${members.EDITOR!.user.id}&action=board`);
    expect(byEditor.map((e) => e.action)).toEqual(["board.updated"]);
    expect(byEditor[0]!.changes).toEqual({ name: { before: "B0", after: "Renamed" } });
    expect((await log(c, ws.id, "?action=board.created")).map((e) => e.object.id)).toEqual([...ids].reverse());
    expect((await log(c, ws.id, `?object_id=${ids[2]}`)).length).toBe(1);
    const future = encodeURIComponent(new Date(Date.now() + 3600_000).toISOString());
    expect(await log(c, ws.id, `?from=${future}`)).toEqual([]);

    const seen: string[] = [];
    let cursor = "";
    for (let guard = 0; guard < 10; guard++) {
      const res = (await c.get(`/workspaces/${ws.id}/audit?action=board&limit=2${cursor}`)).json();
      seen.push(...res.data.map((e: Event) => e.id));
      if (!res.next_cursor) break;
      cursor = `&cursor=${res.next_cursor}`;
    }
    expect(seen).toEqual((await log(c, ws.id, "?action=board")).map((e) => e.id));
    expect(new Set(seen).size).toBe(6);

    const csv = await c.get(`/workspaces/${ws.id}/audit/export?action=board`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const lines = csv.body.trim().split("\n");
    expect(lines[0]).toBe(
      "at,actor_kind,actor_id,actor_name,action,object_type,object_id,object_name,changes,ip,user_agent",
    );
    expect(lines).toHaveLength(7);
    expect(find(await log(c, ws.id), "audit.exported")).toMatchObject({ changes: { action: "board" } });

    const bad = await c.get(`/workspaces/${ws.id}/audit?cursor=abc`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBeTruthy();
    expect((await members.EDITOR!.client.get(`/workspaces/${ws.id}/audit`)).statusCode).toBe(403);
    expect((await members.COMMENTER!.client.get(`/workspaces/${ws.id}/audit/export`)).statusCode).toBe(403);
    const outsider = (await workspaceWith(env)).admin.client;
    expect((await outsider.get(`/workspaces/${ws.id}/audit`)).statusCode).toBe(404);
    expect((await outsider.get(`/workspaces/${ws.id}/boards/${ids[0]}/history`)).statusCode).toBe(404);
    expect(
      (await members.COMMENTER!.client.put(`/workspaces/${ws.id}/audit/settings`, { retention_days: 90 })).statusCode,
    ).toBe(403);
  });

  it("shows members an asset's and a board's own history, without addresses", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const c = admin.client;
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Moodboard" })).json().id as string;
    const asset = await processedAsset(env, c, ws.id, "mood.png", await png("#8844aa"));
    await c.post(`/workspaces/${ws.id}/boards/${board}/assets`, { asset_ids: [asset] });
    await c.post(`/workspaces/${ws.id}/comments`, { content_type: "asset", object_id: asset, text: "Warmer?" });
    const other = await processedAsset(env, c, ws.id, "other.png", await png("#44aa88"));

    const res = await members.COMMENTER!.client.get(`/workspaces/${ws.id}/assets/${asset}/history`);
    expect(res.statusCode, res.body).toBe(200);
    const history: Event[] = res.json().data;
    expect(history.map((e) => e.action)).toEqual(
      expect.arrayContaining(["asset.created", "board.asset_added", "comment.created"]),
    );
    expect(history.every((e) => e.ip === undefined && e.user_agent === undefined)).toBe(true);
    expect(history.some((e) => e.object.id === other)).toBe(false);
    const boardHistory = (await c.get(`/workspaces/${ws.id}/boards/${board}/history`)).json().data as Event[];
    expect(boardHistory.map((e) => e.action)).toEqual(["board.asset_added", "board.created"]);
    expect((await c.get(`/workspaces/${ws.id}/assets/${ws.id}/history`)).statusCode).toBe(404);
  });

  it("is append-only, and the daily purge removes what is past the workspace's retention", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    await c.post(`/workspaces/${ws.id}/boards`, { name: "Old news" });
    const db = env.rt.db;
    await expect(sql`UPDATE audit_events SET action = 'x' WHERE workspace_id = ${ws.id}`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`DELETE FROM audit_events WHERE workspace_id = ${ws.id}`.execute(db)).rejects.toThrow(
      /append-only/,
    );

    const settings = await c.put(`/workspaces/${ws.id}/audit/settings`, { retention_days: 30 });
    expect(settings.statusCode, settings.body).toBe(200);
    expect((await c.get(`/workspaces/${ws.id}/audit/settings`)).json()).toEqual({ retention_days: 30 });
    const tooShort = await c.put(`/workspaces/${ws.id}/audit/settings`, { retention_days: 7 });
    expect(tooShort.statusCode).toBe(422);
    await sql`INSERT INTO audit_events (workspace_id, at, actor_kind, action, object_type)
      VALUES (${ws.id}, now() - interval '31 days', 'system', 'board.created', 'board'),
             (${ws.id}, now() - interval '29 days', 'system', 'board.updated', 'board')`.execute(db);
    const before = await log(c, ws.id);
    await env.rt.services.audit.purge();
    const after = await log(c, ws.id);
    expect(before.length - after.length).toBe(1);
    expect(after.some((e) => e.action === "board.updated" && e.actor.kind === "system")).toBe(true);
    expect(find(after, "workspace.updated")?.changes).toEqual({ audit_retention_days: { before: 365, after: 30 } });
  });
});
