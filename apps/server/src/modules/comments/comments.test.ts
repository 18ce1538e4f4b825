import { type Comment, CommentPage } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

/** An asset row made directly (the pipeline is not what these tests are about). */
async function asset(
  ws: string,
  opts: { page_count?: number; file_type?: "IMAGE" | "VIDEO" | "DOCUMENT"; duration?: number } = {},
) {
  const a = await env.rt.db
    .insertInto("assets")
    .values({
      workspace_id: ws,
      name: `asset-${Math.random().toString(36).slice(2, 7)}.jpg`,
      status: "COMPLETED",
      is_temp: false,
      file_type: opts.file_type ?? "IMAGE",
      page_count: opts.page_count ?? null,
      duration: opts.duration ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return a.id;
}
async function board(c: Client, ws: string, name: string) {
  return (await c.post(`/workspaces/${ws}/boards`, { name })).json().id as string;
}
async function post(c: Client, ws: string, body: Record<string, unknown>) {
  const res = await c.post(`/workspaces/${ws}/comments`, { content_type: "asset", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Comment;
}
async function list(c: Client, ws: string, query: string) {
  const res = await c.get(`/workspaces/${ws}/comments?content_type=asset&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return CommentPage.parse(res.json());
}

describe("threads", () => {
  it("lists top-level comments in order with reply counts; a reply to a reply lists flat under its root and keeps the board", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const a = await asset(ws.id);
    const b = await board(admin.client, ws.id, "Spring");
    const root = await post(admin.client, ws.id, { object_id: a, text: "  First look  ", board_id: b });
    expect(root).toMatchObject({
      text: "First look",
      parent_id: null,
      thread_id: root.id,
      board_id: b,
      reply_count: 0,
    });
    expect(root.author_display).toBe("Admin User");
    const global = await post(members.COMMENTER!.client, ws.id, { object_id: a, text: "Global note" });
    expect(global.board_id).toBeNull();
    const r1 = await post(members.COMMENTER!.client, ws.id, {
      object_id: a,
      text: "Reply",
      parent_id: root.id,
      board_id: null,
    });
    const r2 = await post(admin.client, ws.id, { object_id: a, text: "Reply to the reply", parent_id: r1.id });
    expect(r1).toMatchObject({ thread_id: root.id, board_id: b });
    expect(r2).toMatchObject({ thread_id: root.id, parent_id: r1.id, board_id: b });

    const top = await list(admin.client, ws.id, `object_id=${a}`);
    expect(top.results.map((c) => c.text)).toEqual(["First look", "Global note"]);
    expect(top.results[0]!.reply_count).toBe(2);
    expect(top.count).toBe(2);
    const replies = await list(admin.client, ws.id, `object_id=${a}&parent_id=${root.id}`);
    expect(replies.results.map((c) => c.text)).toEqual(["Reply", "Reply to the reply"]);
    // Asking with a reply's id lists the same thread.
    expect((await list(admin.client, ws.id, `object_id=${a}&parent_id=${r1.id}`)).count).toBe(2);

    expect((await list(admin.client, ws.id, `object_id=${a}&board_id=null`)).results.map((c) => c.text)).toEqual([
      "Global note",
    ]);
    expect((await list(admin.client, ws.id, `object_id=${a}&board_id=${b}`)).results.map((c) => c.text)).toEqual([
      "First look",
    ]);
  });

  it("pages long threads with a cursor", async () => {
    const { ws, admin } = await workspaceWith(env);
    const a = await asset(ws.id);
    for (let i = 0; i < 7; i++) await post(admin.client, ws.id, { object_id: a, text: `c${i}` });
    const p1 = await list(admin.client, ws.id, `object_id=${a}&limit=3`);
    expect(p1.results.map((c) => c.text)).toEqual(["c0", "c1", "c2"]);
    expect(p1.count).toBe(7);
    const p2 = await list(admin.client, ws.id, `object_id=${a}&limit=3&cursor=${p1.next_cursor}`);
    const p3 = await list(admin.client, ws.id, `object_id=${a}&limit=3&cursor=${p2.next_cursor}`);
    expect([...p2.results, ...p3.results].map((c) => c.text)).toEqual(["c3", "c4", "c5", "c6"]);
    expect(p3.next_cursor).toBeNull();
  });

  it("deleting a thread's root takes its replies; deleting a reply keeps the replies under it", async () => {
    const { ws, admin } = await workspaceWith(env);
    const a = await asset(ws.id);
    const root = await post(admin.client, ws.id, { object_id: a, text: "root" });
    const r1 = await post(admin.client, ws.id, { object_id: a, text: "r1", parent_id: root.id });
    await post(admin.client, ws.id, { object_id: a, text: "r2", parent_id: r1.id });
    const del = await admin.client.del(`/workspaces/${ws.id}/comments/${r1.id}`);
    expect(del.json()).toEqual({ status: "ok", deleted: 1 });
    expect((await list(admin.client, ws.id, `object_id=${a}&parent_id=${root.id}`)).results.map((c) => c.text)).toEqual(
      ["r2"],
    );
    expect((await admin.client.del(`/workspaces/${ws.id}/comments/${root.id}`)).json()).toEqual({
      status: "ok",
      deleted: 2,
    });
    expect((await list(admin.client, ws.id, `object_id=${a}`)).count).toBe(0);
  });
});

describe("annotations and validation", () => {
  it("keeps points, areas, pages and video times; refuses what does not fit with 422 naming the field", async () => {
    const { ws, admin } = await workspaceWith(env);
    const img = await asset(ws.id);
    const doc = await asset(ws.id, { file_type: "DOCUMENT", page_count: 3 });
    const vid = await asset(ws.id, { file_type: "VIDEO", duration: 6 });
    const point = await post(admin.client, ws.id, {
      object_id: img,
      text: "here",
      annotation_type: "POINT",
      x: 12.5,
      y: 40,
    });
    expect(point).toMatchObject({ annotation_type: "POINT", x: 12.5, y: 40, width: null });
    const area = await post(admin.client, ws.id, {
      object_id: doc,
      text: "this block",
      annotation_type: "AREA",
      x: 10,
      y: 20,
      width: 30,
      height: 15,
      page: 2,
      severity: "high",
    });
    expect(area).toMatchObject({ page: 2, width: 30, height: 15, severity: "high" });
    const timed = await post(admin.client, ws.id, { object_id: vid, text: "cut here", timestamp: 3.2, duration: 1.5 });
    expect(timed).toMatchObject({ timestamp: 3.2, duration: 1.5 });

    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await admin.client.post(`/workspaces/${ws.id}/comments`, { content_type: "asset", ...body });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().detail).toBeTruthy();
      expect(
        res
          .json()
          .errors.map((e: { field: string }) => e.field)
          .join(" "),
      ).toContain(field);
    };
    await bad({ object_id: img, text: "   " }, "text");
    await bad({ object_id: img, text: "x", annotation_type: "POINT", x: 101, y: 5 }, "x");
    await bad({ object_id: img, text: "x", annotation_type: "AREA", x: 5, y: 5 }, "width");
    await bad({ object_id: img, text: "x", annotation_type: "AREA", x: 80, y: 5, width: 30, height: 10 }, "width");
    await bad({ object_id: img, text: "x", x: 5, y: 5 }, "x");
    await bad({ object_id: doc, text: "x", page: 4 }, "page");
    await bad({ object_id: img, text: "x", timestamp: 1 }, "timestamp");
    await bad({ object_id: img, text: "x".repeat(10_001) }, "text");
    await bad({ object_id: img, text: "x", severity: "urgent" }, "severity");
    // Denormals: a width of 1e-320 % is no area at all; never the database's "out of range for type real".
    await bad({ object_id: img, text: "x", annotation_type: "AREA", x: 5, y: 5, width: 1e-320, height: 5 }, "width");
    const tiny = await post(admin.client, ws.id, {
      object_id: img,
      text: "x",
      annotation_type: "POINT",
      x: 5e-324,
      y: 1e-320,
    });
    expect(tiny).toMatchObject({ x: 0, y: 0 });
    // A remark on a 6-second clip lies within its 6 seconds.
    await bad({ object_id: vid, text: "x", timestamp: 3600 }, "timestamp");
    await bad({ object_id: vid, text: "x", timestamp: 1e15 }, "timestamp");
    await bad({ object_id: vid, text: "x", timestamp: 5, duration: 2 }, "duration");
    expect(await post(admin.client, ws.id, { object_id: vid, text: "last frame", timestamp: 6 })).toMatchObject({
      timestamp: 6,
    });
  });
});

describe("permissions", () => {
  it("any role comments and replies; the author edits; the author or an ADMIN deletes; the thread's author or an editor resolves", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const editor = members.EDITOR!.client;
    const commenter = members.COMMENTER!.client;
    const a = await asset(ws.id);
    const byCommenter = await post(commenter, ws.id, { object_id: a, text: "mine" });
    expect(byCommenter.abilities).toEqual({ edit: true, delete: true, reply: true, resolve: true });
    const byAdmin = await post(admin.client, ws.id, { object_id: a, text: "admin's" });
    const reply = await post(editor, ws.id, { object_id: a, text: "editor reply", parent_id: byAdmin.id });

    // The commenter sees the admin's comment as read-only apart from replying.
    const seen = (await list(commenter, ws.id, `object_id=${a}`)).results.find((c) => c.id === byAdmin.id)!;
    expect(seen.abilities).toEqual({ edit: false, delete: false, reply: true, resolve: false });

    const url = (id: string) => `/workspaces/${ws.id}/comments/${id}`;
    // Edit: the author only, whatever the role.
    expect((await admin.client.put(url(byCommenter.id), { text: "admin edit" })).statusCode).toBe(403);
    expect((await editor.put(url(byAdmin.id), { text: "editor edit" })).statusCode).toBe(403);
    expect((await commenter.put(url(byAdmin.id), { text: "commenter edit" })).statusCode).toBe(403);
    const edited = (await commenter.put(url(byCommenter.id), { text: "mine, edited" })).json() as Comment;
    expect(edited.text).toBe("mine, edited");
    expect(edited.updated_at).not.toBe(edited.created_at);
    // Resolve: the thread's author or an editor; not a commenter on another's thread.
    expect((await commenter.post(`${url(byAdmin.id)}/resolve`, { resolved: true })).statusCode).toBe(403);
    const resolved = (await editor.post(`${url(byAdmin.id)}/resolve`, { resolved: true })).json() as Comment;
    expect(resolved).toMatchObject({ resolved: true, resolved_by: { id: members.EDITOR!.user.id } });
    expect((await commenter.post(`${url(byCommenter.id)}/resolve`, { resolved: true })).statusCode).toBe(200);
    expect((await admin.client.post(`${url(byAdmin.id)}/resolve`, { resolved: false })).json().resolved).toBe(false);
    expect((await editor.post(`${url(reply.id)}/resolve`, { resolved: true })).statusCode).toBe(422);
    // Delete: the author or an ADMIN.
    expect((await commenter.del(url(reply.id))).statusCode).toBe(403);
    expect((await editor.del(url(byCommenter.id))).statusCode).toBe(403);
    expect((await admin.client.del(url(byCommenter.id))).statusCode).toBe(200);
    expect((await editor.del(url(reply.id))).statusCode).toBe(200);
  });

  it("an outsider gets 404 on every comment call, also with a guessed comment id", async () => {
    const { ws, admin } = await workspaceWith(env);
    const other = await workspaceWith(env);
    const outsider = other.admin.client;
    const a = await asset(ws.id);
    const c = await post(admin.client, ws.id, { object_id: a, text: "secret" });
    const base = `/workspaces/${ws.id}/comments`;
    const calls = [
      outsider.get(`${base}?content_type=asset&object_id=${a}`),
      outsider.post(base, { content_type: "asset", object_id: a, text: "hi" }),
      outsider.post(base, { content_type: "asset", object_id: a, text: "hi", parent_id: c.id }),
      outsider.put(`${base}/${c.id}`, { text: "x" }),
      outsider.del(`${base}/${c.id}`),
      outsider.post(`${base}/${c.id}/resolve`, { resolved: true }),
      outsider.get(`/workspaces/${ws.id}/comments/export?content_type=asset&object_id=${a}`),
      outsider.get(`/workspaces/${ws.id}/events`),
      // Their own workspace, our comment's id: not found there either.
      outsider.put(`/workspaces/${other.ws.id}/comments/${c.id}`, { text: "x" }),
      outsider.del(`/workspaces/${other.ws.id}/comments/${c.id}`),
      outsider.get(`/workspaces/${other.ws.id}/comments?content_type=asset&object_id=${a}`),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode, res.body).toBe(404);
    expect((await list(admin.client, ws.id, `object_id=${a}`)).results[0]!.text).toBe("secret");
  });
});

describe("one comment", () => {
  it("any member reads a comment or reply by id (a mention's link); outsiders and deleted ones 404", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const other = await workspaceWith(env);
    const doc = await asset(ws.id, { page_count: 3, file_type: "DOCUMENT" });
    const root = await post(admin.client, ws.id, { object_id: doc, text: "page two", page: 2 });
    const reply = await post(admin.client, ws.id, { object_id: doc, text: "agreed", parent_id: root.id });
    const one = await members.COMMENTER!.client.get(`/workspaces/${ws.id}/comments/${reply.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ id: reply.id, thread_id: root.id, parent_id: root.id, object_id: doc });
    expect((await admin.client.get(`/workspaces/${ws.id}/comments/${root.id}`)).json()).toMatchObject({ page: 2 });
    for (const res of [
      await other.admin.client.get(`/workspaces/${ws.id}/comments/${root.id}`),
      await other.admin.client.get(`/workspaces/${other.ws.id}/comments/${root.id}`),
      await admin.client.get(`/workspaces/${ws.id}/comments/00000000-0000-4000-8000-000000000000`),
    ])
      expect(res.statusCode, res.body).toBe(404);
    expect((await admin.client.get(`/workspaces/${ws.id}/comments/not-an-id`)).statusCode).toBe(422);
    await admin.client.del(`/workspaces/${ws.id}/comments/${reply.id}`);
    expect((await admin.client.get(`/workspaces/${ws.id}/comments/${reply.id}`)).statusCode).toBe(404);
  });
});

describe("mentions", () => {
  it("stores members mentioned and refuses people outside the workspace", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const stranger = await workspaceWith(env);
    const a = await asset(ws.id);
    const c = await post(admin.client, ws.id, {
      object_id: a,
      text: "@EDITOR User please look",
      mentions: [members.EDITOR!.user.id],
    });
    expect(c.mentions).toEqual([{ user_id: members.EDITOR!.user.id, display: "EDITOR User" }]);
    const res = await admin.client.post(`/workspaces/${ws.id}/comments`, {
      content_type: "asset",
      object_id: a,
      text: "hi",
      mentions: [stranger.admin.user.id],
    });
    expect(res.statusCode).toBe(422);
  });
});

describe("export", () => {
  it("answers CSV with every comment (formula-safe) and a PDF report", async () => {
    const { ws, admin } = await workspaceWith(env);
    const a = await asset(ws.id);
    const root = await post(admin.client, ws.id, {
      object_id: a,
      text: '=HYPERLINK("x")',
      annotation_type: "POINT",
      x: 5,
      y: 5,
    });
    await post(admin.client, ws.id, { object_id: a, text: "a reply, with a comma", parent_id: root.id });
    const csv = await admin.client.get(
      `/workspaces/${ws.id}/comments/export?content_type=asset&object_id=${a}&format=csv`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.body).toContain("'=HYPERLINK");
    expect(csv.body).toContain('"a reply, with a comma"');
    expect(csv.body.trim().split("\n")).toHaveLength(3);
    const pdf = await admin.client.get(
      `/workspaces/${ws.id}/comments/export?content_type=asset&object_id=${a}&format=pdf`,
    );
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.headers["content-disposition"]).toContain(".pdf");
  });
});

describe("open threads on assets", () => {
  it("the asset answer counts open threads and the listing filters on them", async () => {
    const { ws, admin } = await workspaceWith(env);
    const a = await asset(ws.id);
    const quiet = await asset(ws.id);
    const t1 = await post(admin.client, ws.id, { object_id: a, text: "one" });
    await post(admin.client, ws.id, { object_id: a, text: "two" });
    await post(admin.client, ws.id, { object_id: a, text: "a reply is not a thread", parent_id: t1.id });
    const get = async (id: string) => (await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json();
    expect((await get(a)).open_comment_count).toBe(2);
    await admin.client.post(`/workspaces/${ws.id}/comments/${t1.id}/resolve`, { resolved: true });
    expect((await get(a)).open_comment_count).toBe(1);
    expect((await get(quiet)).open_comment_count).toBe(0);
    const ids = async (body: Record<string, unknown>) =>
      ((await admin.client.post(`/workspaces/${ws.id}/assets`, body)).json().data as Array<{ id: string }>).map(
        (x) => x.id,
      );
    expect(await ids({ has_open_comments: true })).toEqual([a]);
    expect(await ids({ has_open_comments: false })).toEqual([quiet]);
  });
});
