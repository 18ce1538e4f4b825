import type { LiveEvent, ReviewListAnswer } from "@hangar/contract";
import { PDFiumLibrary } from "@hyzyla/pdfium";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, type TestEnv, uniqueEmail } from "../../../test/harness.ts";
import { createReview, decided, images, linkOf, team, versionOf } from "./reviews.fixture.ts";

/**
 * What reviews leave behind and tell others (issue 30): the asset answer's `approval`, the listing's
 * `approval_status` filter, the reviews list and its filters, live events, and the record (CSV, PDF).
 */
/** RFC 4180 rows (quoted fields, doubled quotes, commas and line breaks inside quotes) as objects by header. */
function parseCsv(text: string): Array<Record<string, string>> {
  const rows: string[][] = [[]];
  let field = "";
  let quoted = false;
  const endField = () => {
    rows.at(-1)!.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (quoted) field += ch;
    else if (ch === ",") endField();
    else if (ch === "\n") {
      endField();
      rows.push([]);
    } else if (ch !== "\r") field += ch;
  }
  if (field || rows.at(-1)!.length) endField();
  const [head, ...body] = rows.filter((r) => r.length > 1);
  return body.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ""])));
}

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

async function scene() {
  const t = await team(env, { req: "EDITOR", ann: "COMMENTER" });
  const c = t.m.req.client;
  const [a, b, x, d] = await images(env, c, t.ws, 4);
  const guest = uniqueEmail("guest");
  const due = new Date(Date.now() + 2 * 86_400_000);
  const r = await createReview(c, t.ws, {
    title: "Autumn catalogue",
    due_at: due.toISOString(),
    asset_ids: [a!, b!, x!],
    stages: [{ reviewers: [t.m.ann.user.id, { email: guest, name: "Gail" }] }],
  });
  const v = new Client(env.app);
  const token = linkOf(r, guest).token;
  const asGuest = (asset: string, decision: string, note?: string) =>
    v.post(`/review/${token}/decisions`, { asset_id: asset, decision, note });
  await decided(t.m.ann.client, t.ws, r.id, { asset_id: a!, decision: "approved" });
  expect((await asGuest(a!, "approved")).statusCode).toBe(201);
  await decided(t.m.ann.client, t.ws, r.id, {
    asset_id: b!,
    decision: "approved_with_changes",
    note: "Tone down — é, ß, Ж",
  });
  expect((await asGuest(b!, "approved")).statusCode).toBe(201);
  await decided(t.m.ann.client, t.ws, r.id, { asset_id: x!, decision: "rejected" });
  await decided(t.m.ann.client, t.ws, r.id, { asset_id: x!, decision: "changes_requested", note: "=Crop, left" });
  const dropped = await createReview(c, t.ws, { title: "Dropped", asset_ids: [d!], stages: [{ reviewers: [guest] }] });
  await c.post(`/workspaces/${t.ws}/reviews/${dropped.id}/cancel`);
  return { ...t, c, a: a!, b: b!, x: x!, d: d!, r, dropped, guest, due };
}

describe("approvals seen from elsewhere", () => {
  it("the asset answer carries its approval; the listing filters on approval status", async () => {
    const s = await scene();
    const approval = (await s.c.get(`/workspaces/${s.ws}/assets/${s.a}`)).json().approval;
    expect(approval).toMatchObject({ review_id: s.r.id, review_title: "Autumn catalogue", status: "approved" });
    expect(approval.decisions.map((d: { name: string; decision: string }) => [d.name, d.decision])).toEqual([
      ["ann User", "approved"],
      ["Gail", "approved"],
    ]);
    expect((await s.c.get(`/workspaces/${s.ws}/assets/${s.d}`)).json().approval).toBeNull(); // canceled only
    const ids = async (approval_status: Record<string, string[]>) => {
      const res = await s.c.post(`/workspaces/${s.ws}/assets`, { approval_status, page_size: 50 });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as Array<{ id: string; approval: unknown }>).map((x) => x.id).sort();
    };
    expect(await ids({ includes: ["approved"] })).toEqual([s.a]);
    expect(await ids({ includes: ["approved", "approved_with_changes"] })).toEqual([s.a, s.b].sort());
    expect(await ids({ includes: ["changes_requested"] })).toEqual([s.x]);
    expect(await ids({ includes: ["none"] })).toEqual([s.d]);
    expect(await ids({ excludes: ["none", "approved"] })).toEqual([s.b, s.x].sort());
    expect(await ids({ includes: ["in_review"] })).toEqual([]);
    await versionOf(env, s.c, s.ws, s.x);
    expect(await ids({ includes: ["in_review"] })).toEqual([s.x]);
    const cards = (await s.c.post(`/workspaces/${s.ws}/assets`, { page_size: 50 })).json().data;
    expect(cards.find((x: { id: string }) => x.id === s.b).approval.status).toBe("approved_with_changes");
    const bad = await s.c.post(`/workspaces/${s.ws}/assets`, { approval_status: { includes: ["maybe"] } });
    expect(bad.statusCode).toBe(422);
  });

  it("lists reviews: waiting for me, requested by me, by state, due before, holding an asset; pages", async () => {
    const s = await scene();
    const list = async (c: Client, q: string) => {
      const res = await c.get(`/workspaces/${s.ws}/reviews?${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ReviewListAnswer;
    };
    const titles = async (c: Client, q: string) => (await list(c, q)).data.map((r) => r.title);
    expect(await titles(s.c, "requested_by=me")).toEqual(["Dropped", "Autumn catalogue"]);
    expect(await titles(s.m.ann.client, "requested_by=me")).toEqual([]);
    expect(await titles(s.m.ann.client, "waiting_for=me")).toEqual([]); // ann decided everything
    await versionOf(env, s.c, s.ws, s.x); // …until x has a new version
    const waiting = await list(s.m.ann.client, "waiting_for=me");
    expect(waiting.data.map((r) => [r.title, r.waiting_for_me])).toEqual([["Autumn catalogue", 1]]);
    expect(waiting.data[0]).toMatchObject({
      state: "open",
      stage_count: 1,
      progress: { total: 3, approved: 2, changes_requested: 0, rejected: 0, in_review: 1 },
      requested_by: { id: s.m.req.user.id, name: "req User" },
      due_at: s.due.toISOString(),
      overdue: false,
    });
    expect(await titles(s.c, "state=canceled")).toEqual(["Dropped"]);
    expect(await titles(s.c, "state=open")).toEqual(["Autumn catalogue"]);
    expect(await titles(s.c, `due_before=${new Date(Date.now() + 3 * 86_400_000).toISOString()}`)).toEqual([
      "Autumn catalogue",
    ]);
    expect(await titles(s.c, `due_before=${new Date().toISOString().slice(0, 10)}`)).toEqual([]);
    expect(await titles(s.c, `asset_id=${s.d}`)).toEqual(["Dropped"]);
    const first = await list(s.c, "page_size=1");
    expect(first.pagination).toMatchObject({ page: 1, total_count: 2, total_pages: 2, has_more: true });
    const beyond = await list(s.c, "page=5&page_size=1");
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toMatchObject({ page: 5, total_count: 2, has_more: false });
    expect((await s.c.get(`/workspaces/${s.ws}/reviews?state=done`)).statusCode).toBe(422);
  });

  it("sends live events for decisions and for states, ids only", async () => {
    const t = await team(env, { req: "EDITOR", ann: "COMMENTER" });
    const [a] = await images(env, t.m.req.client, t.ws, 1);
    const r = await createReview(t.m.req.client, t.ws, {
      title: "Live",
      asset_ids: [a!],
      stages: [{ reviewers: [t.m.ann.user.id] }],
    });
    const events: LiveEvent[] = [];
    const stop = env.rt.live.subscribe({
      workspaceId: t.ws,
      userId: null,
      sessionId: null,
      onEvent: (e) => events.push(e),
      onResync: () => {},
      end: () => {},
    });
    await env.rt.live.ready();
    const decision = await decided(t.m.ann.client, t.ws, r.id, { asset_id: a!, decision: "approved" });
    const until = Date.now() + 10_000;
    while (events.filter((e) => e.type.startsWith("review.")).length < 3 && Date.now() < until)
      await new Promise((res) => setTimeout(res, 50));
    stop();
    expect(events.filter((e) => e.type.startsWith("review."))).toEqual(
      expect.arrayContaining([
        { type: "review.decision", review_id: r.id, asset_id: a, decision_id: decision.decisions[0]!.id },
        { type: "review.asset", review_id: r.id, asset_id: a, status: "approved" },
        { type: "review.state", review_id: r.id, state: "approved" },
      ]),
    );
  });

  it("the record: every decision with reviewer, time, version and note; assets; history; as CSV and as PDF", async () => {
    const s = await scene();
    await versionOf(env, s.c, s.ws, s.x);
    await s.c.post(`/workspaces/${s.ws}/reviews/${s.r.id}/cancel`);
    await s.c.post(`/workspaces/${s.ws}/reviews/${s.r.id}/reopen`, {});
    const csv = await s.m.ann.client.get(`/workspaces/${s.ws}/reviews/${s.r.id}/report?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.headers["content-disposition"]).toContain("Autumn catalogue review.csv");
    const rows = parseCsv(csv.body.replace(/^\uFEFF/, ""));
    expect(rows.filter((r) => r.record === "asset").map((r) => [r.asset_id, r.version, r.status])).toEqual([
      [s.a, "1", "Approved"],
      [s.b, "1", "Approved with changes"],
      [s.x, "2", "In review"],
    ]);
    const decisions = rows.filter((r) => r.record === "decision");
    expect(decisions.map((r) => [r.reviewer, r.decision, r.version, r.note])).toEqual([
      ["ann User", "Approved", "1", ""],
      ["Gail", "Approved", "1", ""],
      ["ann User", "Approved with changes", "1", "Tone down — é, ß, Ж"],
      ["Gail", "Approved", "1", ""],
      ["ann User", "Rejected", "1", ""],
      ["ann User", "Changes requested", "1", "'=Crop, left"], // a formula-looking note is quoted
    ]);
    expect(decisions.every((r) => !Number.isNaN(Date.parse(r.at ?? "")))).toBe(true);
    expect(rows.filter((r) => r.record === "history").map((r) => r.note)).toEqual([
      "Created by req User (3 assets)",
      "Stage 1 started",
      "Done: Rejected", // every decision was in when ann rejected x (before asking for changes instead)
      expect.stringMatching(/^Version 2 of “.+” became current$/),
      "Canceled by req User",
      "Reopened by req User", // a canceled review resumes: no asset starts over
    ]);
    const pdf = await s.c.get(`/workspaces/${s.ws}/reviews/${s.r.id}/report?format=pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const pdfium = await PDFiumLibrary.init();
    try {
      const doc = await pdfium.loadDocument(pdf.rawPayload);
      let text = "";
      let images = 0;
      for (const page of doc.pages()) {
        text += `${page.getText()}\n`;
        for (const o of page.objects()) if (o.type === "image") images++;
      }
      doc.destroy();
      expect(images).toBe(3); // each asset's thumbnail
      for (const words of [
        "Review: Autumn catalogue",
        "requested by req User",
        "2 of 3 approved",
        "Version 2 · In review",
        "ann User · Approved with changes · version 1 · stage 1",
        "Tone down — é, ß, Ж", // printed as typed (an embedded font), never "?"
        "Gail · Approved",
        "=Crop, left",
        "History",
        "Canceled by req User",
      ])
        expect(text.replace(/\s+/g, " ")).toContain(words);
    } finally {
      pdfium.destroy();
    }
    expect((await s.c.get(`/workspaces/${s.ws}/reviews/${s.r.id}/report?format=doc`)).statusCode).toBe(422);
  });
});
