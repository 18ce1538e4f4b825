import type { CustomField, FieldValue } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

async function assets(ws: string, n: number) {
  const rows = await env.rt.db
    .insertInto("assets")
    .values(
      Array.from({ length: n }, (_, i) => ({
        workspace_id: ws,
        name: `a${i}.jpg`,
        status: "COMPLETED" as const,
        is_temp: false,
      })),
    )
    .returning("id")
    .execute();
  return rows.map((r) => r.id);
}
async function field(c: Client, ws: string, body: Record<string, unknown>) {
  const res = await c.post(`/workspaces/${ws}/fields`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CustomField;
}
/** One field of each type: Status (Draft, Approved), Channels (Web, Print), Notes, Due. */
async function fourFields(c: Client, ws: string) {
  const option = (label: string, color: string) => ({ label, color });
  const status = await field(c, ws, {
    title: "Status",
    field_type: "SINGLE_SELECT",
    options: [option("Draft", "#9e9e9e"), option("Approved", "#2b8a3e")],
  });
  const channels = await field(c, ws, {
    title: "Channels",
    field_type: "MULTI_SELECT",
    options: [option("Web", "#1971c2"), option("Print", "#e8590c")],
  });
  const notes = await field(c, ws, { title: "Notes", field_type: "TEXT" });
  const due = await field(c, ws, { title: "Due", field_type: "DATE" });
  return { status, channels, notes, due };
}

const set = (c: Client, ws: string, fieldId: string, body: Record<string, unknown>) =>
  c.post(`/workspaces/${ws}/field-values/${fieldId}`, body);
const values = async (c: Client, ws: string, assetId: string) =>
  (await c.get(`/workspaces/${ws}/assets/${assetId}/field-values`)).json() as FieldValue[];
const listed = async (c: Client, ws: string, body: Record<string, unknown>) =>
  ((await c.post(`/workspaces/${ws}/assets`, { page_size: 100, ...body })).json().data as Array<{ name: string }>)
    .map((a) => a.name)
    .sort();

describe("fields and options", () => {
  it("ADMIN manages fields in order with unique titles; options unique per field; others cannot", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const status = await field(admin.client, ws.id, {
      title: "Status",
      field_type: "SINGLE_SELECT",
      options: [
        { label: "Draft", color: "#9e9e9e" },
        { label: "Approved", color: "#2b8a3e" },
      ],
    });
    expect(status.options.map((o) => o.label)).toEqual(["Draft", "Approved"]);
    const notes = await field(admin.client, ws.id, { title: "Notes", field_type: "TEXT" });
    expect(
      (await admin.client.post(`/workspaces/${ws.id}/fields`, { title: "status", field_type: "TEXT" })).statusCode,
    ).toBe(409);
    expect(
      (await admin.client.post(`/workspaces/${ws.id}/fields`, { title: " ", field_type: "TEXT" })).statusCode,
    ).toBe(422);
    expect(
      (await admin.client.post(`/workspaces/${ws.id}/fields`, { title: "X", field_type: "NUMBER" })).statusCode,
    ).toBe(422);
    const reordered = (
      await admin.client.post(`/workspaces/${ws.id}/fields/reorder`, { field_ids: [notes.id, status.id] })
    ).json();
    expect(reordered.map((f: CustomField) => f.title)).toEqual(["Notes", "Status"]);
    const opt = (
      await admin.client.post(`/workspaces/${ws.id}/custom-fields/${status.id}/options`, {
        label: "Live",
        color: "#1971c2",
      })
    ).json();
    expect(opt).toMatchObject({ label: "Live", position: 2 });
    expect(
      (
        await admin.client.post(`/workspaces/${ws.id}/custom-fields/${status.id}/options`, {
          label: "live",
          color: "#1971c2",
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await admin.client.post(`/workspaces/${ws.id}/custom-fields/${status.id}/options`, {
          label: "Red",
          color: "red",
        })
      ).statusCode,
    ).toBe(422);
    for (const who of [members.EDITOR!.client, members.COMMENTER!.client]) {
      expect((await who.post(`/workspaces/${ws.id}/fields`, { title: "Mine", field_type: "TEXT" })).statusCode).toBe(
        403,
      );
      expect((await who.put(`/workspaces/${ws.id}/fields/${status.id}`, { title: "Mine" })).statusCode).toBe(403);
      expect((await who.del(`/workspaces/${ws.id}/custom-fields/${status.id}/options/${opt.id}`)).statusCode).toBe(403);
      expect((await who.get(`/workspaces/${ws.id}/fields`)).statusCode).toBe(200);
    }
  });

  it("an ADMIN reorders a field's options with the whole list; a stale list is 409, others 403/404", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const other = await workspaceWith(env);
    const f = await field(admin.client, ws.id, {
      title: "Stage",
      field_type: "MULTI_SELECT",
      options: ["A", "B", "C"].map((label) => ({ label, color: "#1971c2" })),
    });
    const [a, b, c] = f.options.map((o) => o.id);
    const path = `/workspaces/${ws.id}/custom-fields/${f.id}/options/reorder`;
    const moved = await admin.client.post(path, { option_ids: [c, a, b] });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().options.map((o: { label: string }) => o.label)).toEqual(["C", "A", "B"]);
    const listed = (await admin.client.get(`/workspaces/${ws.id}/fields`)).json() as CustomField[];
    expect(listed[0]!.options.map((o) => [o.label, o.position])).toEqual([
      ["C", 0],
      ["A", 1],
      ["B", 2],
    ]);
    for (const stale of [
      [a, b],
      [a, b, c, a],
      [a, b, other.ws.id],
    ]) {
      const r = await admin.client.post(path, { option_ids: stale });
      expect(r.statusCode).toBe(409);
      expect(r.json().detail).toMatch(/changed meanwhile/);
    }
    expect((await members.EDITOR!.client.post(path, { option_ids: [a, b, c] })).statusCode).toBe(403);
    expect((await other.admin.client.post(path, { option_ids: [a, b, c] })).statusCode).toBe(404);
    const after = (await admin.client.get(`/workspaces/${ws.id}/fields`)).json() as CustomField[];
    expect(after[0]!.options.map((o) => o.label)).toEqual(["C", "A", "B"]);
  });

  it("an outsider gets 404 on every call, also with ids of another workspace", async () => {
    const { ws, admin } = await workspaceWith(env);
    const other = await workspaceWith(env);
    const f = await field(admin.client, ws.id, {
      title: "Status",
      field_type: "SINGLE_SELECT",
      options: [{ label: "A", color: "#111111" }],
    });
    const [a] = await assets(ws.id, 1);
    const o = other.admin.client;
    const calls = [
      o.get(`/workspaces/${ws.id}/fields`),
      o.post(`/workspaces/${ws.id}/fields`, { title: "x", field_type: "TEXT" }),
      o.put(`/workspaces/${ws.id}/fields/${f.id}`, { title: "x" }),
      o.del(`/workspaces/${ws.id}/fields/${f.id}`),
      o.post(`/workspaces/${ws.id}/custom-fields/${f.id}/options`, { label: "x", color: "#000000" }),
      o.get(`/workspaces/${ws.id}/assets/${a}/field-values`),
      o.post(`/workspaces/${ws.id}/field-values/${f.id}`, { asset_ids: [a], option_value_id: null }),
      // In their own workspace: our field and asset are not there.
      o.put(`/workspaces/${other.ws.id}/fields/${f.id}`, { title: "x" }),
      o.post(`/workspaces/${other.ws.id}/field-values/${f.id}`, { asset_ids: [a], option_value_id: null }),
      o.get(`/workspaces/${other.ws.id}/assets/${a}/field-values`),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode, res.body).toBe(404);
  });
});

describe("values", () => {
  it("EDITOR sets each kind for many assets at once; the kind must match and options must belong; COMMENTER cannot", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const editor = members.EDITOR!.client;
    const { status, channels, notes, due } = await fourFields(admin.client, ws.id);
    const other = await field(admin.client, ws.id, {
      title: "Other",
      field_type: "SINGLE_SELECT",
      options: [{ label: "Z", color: "#000000" }],
    });
    const ids = await assets(ws.id, 3);
    const [approved, draft] = [status.options[1]!.id, status.options[0]!.id];
    const ok = await set(editor, ws.id, status.id, { asset_ids: ids, option_value_id: approved });
    expect(ok.json()).toEqual({ success: true, count: 3, field_id: status.id });
    await set(editor, ws.id, channels.id, {
      asset_ids: [ids[0]!],
      multi_option_ids: channels.options.map((o) => o.id),
    });
    await set(editor, ws.id, notes.id, { asset_ids: [ids[0]!, ids[1]!], text_value: "Hero shot for spring" });
    await set(editor, ws.id, due.id, { asset_ids: [ids[0]!], date_value: "2026-12-01" });
    const v = await values(members.COMMENTER!.client, ws.id, ids[0]!);
    expect(v.map((x) => x.value_display)).toEqual(["Approved", "Web, Print", "Hero shot for spring", "2026-12-01"]);
    expect(v[0]!.set_by).toMatchObject({ kind: "user", user_id: members.EDITOR!.user.id });

    const refuse = async (fieldId: string, body: Record<string, unknown>, code = 422) =>
      expect((await set(editor, ws.id, fieldId, { asset_ids: [ids[0]!], ...body })).statusCode).toBe(code);
    await refuse(status.id, { text_value: "x" });
    await refuse(notes.id, { option_value_id: draft });
    await refuse(status.id, { option_value_id: other.options[0]!.id });
    await refuse(channels.id, { multi_option_ids: [other.options[0]!.id] });
    await refuse(status.id, { option_value_id: draft, text_value: "two kinds" });
    await refuse(status.id, {});
    await refuse(due.id, { date_value: "tomorrow" });
    expect(
      (await set(editor, ws.id, status.id, { asset_ids: [crypto.randomUUID()], option_value_id: draft })).statusCode,
    ).toBe(404);
    expect(
      (await set(members.COMMENTER!.client, ws.id, status.id, { asset_ids: [ids[0]!], option_value_id: draft }))
        .statusCode,
    ).toBe(403);
    // Unassigned.
    await set(editor, ws.id, status.id, { asset_ids: [ids[2]!], option_value_id: null });
    expect((await values(editor, ws.id, ids[2]!))[0]).toMatchObject({ option_value: null, value_display: "" });
  });

  it("deleting an option clears it from every value and says how many; a type change keeps what it can", async () => {
    const { ws, admin } = await workspaceWith(env);
    const tags = await field(admin.client, ws.id, {
      title: "Tags",
      field_type: "MULTI_SELECT",
      options: [
        { label: "A", color: "#111111" },
        { label: "B", color: "#222222" },
      ],
    });
    const ids = await assets(ws.id, 4);
    await set(admin.client, ws.id, tags.id, {
      asset_ids: ids,
      multi_option_ids: [tags.options[0]!.id, tags.options[1]!.id],
    });
    const del = await admin.client.del(`/workspaces/${ws.id}/custom-fields/${tags.id}/options/${tags.options[0]!.id}`);
    expect(del.json()).toEqual({ status: "ok", values_cleared: 4 });
    expect((await values(admin.client, ws.id, ids[0]!))[0]!.value_display).toBe("B");
    const single = (
      await admin.client.put(`/workspaces/${ws.id}/fields/${tags.id}`, { field_type: "SINGLE_SELECT" })
    ).json();
    expect(single).toMatchObject({ field_type: "SINGLE_SELECT", values_cleared: 0 });
    expect((await values(admin.client, ws.id, ids[0]!))[0]!.option_value?.label).toBe("B");
    const text = (await admin.client.put(`/workspaces/${ws.id}/fields/${tags.id}`, { field_type: "TEXT" })).json();
    expect(text.values_cleared).toBe(0);
    expect((await values(admin.client, ws.id, ids[0]!))[0]!.text_value).toBe("B");
    const date = (await admin.client.put(`/workspaces/${ws.id}/fields/${tags.id}`, { field_type: "DATE" })).json();
    expect(date.values_cleared).toBe(4);
    const gone = await admin.client.del(`/workspaces/${ws.id}/fields/${tags.id}`);
    expect(gone.json()).toEqual({ status: "ok", values_removed: 0 });
  });

  it("sets 10,000 assets in one call", async () => {
    const { ws, admin } = await workspaceWith(env);
    const f = await field(admin.client, ws.id, { title: "Batch", field_type: "TEXT" });
    const ids = await assets(ws.id, 10_000);
    const res = await set(admin.client, ws.id, f.id, { asset_ids: ids, text_value: "bulk" });
    expect(res.json().count).toBe(10_000);
    const n = await env.rt.db
      .selectFrom("field_values")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("field_id", "=", f.id)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(10_000);
  });
});

describe("the listing filter", () => {
  it("filters by options, text, dates and emptiness, at the top level and in or_groups", async () => {
    const { ws, admin } = await workspaceWith(env);
    const { status, channels: ch, notes, due } = await fourFields(admin.client, ws.id);
    const [a0, a1, a2, a3] = await assets(ws.id, 4); // a0.jpg … a3.jpg
    const [draft, approved] = status.options.map((o) => o.id) as [string, string];
    const [web, print] = ch.options.map((o) => o.id) as [string, string];
    await set(admin.client, ws.id, status.id, { asset_ids: [a0!, a1!], option_value_id: approved });
    await set(admin.client, ws.id, status.id, { asset_ids: [a2!], option_value_id: draft });
    await set(admin.client, ws.id, ch.id, { asset_ids: [a0!], multi_option_ids: [web, print] });
    await set(admin.client, ws.id, ch.id, { asset_ids: [a1!], multi_option_ids: [web] });
    await set(admin.client, ws.id, notes.id, { asset_ids: [a3!], text_value: "Hero SHOT for spring" });
    await set(admin.client, ws.id, due.id, { asset_ids: [a1!], date_value: "2026-12-01" });
    await set(admin.client, ws.id, due.id, { asset_ids: [a2!], date_value: "2027-01-15" });
    const cf = (...entries: Record<string, unknown>[]) => ({ custom_fields: entries });
    expect(await listed(admin.client, ws.id, cf({ field_id: status.id, any_of: [approved] }))).toEqual([
      "a0.jpg",
      "a1.jpg",
    ]);
    expect(await listed(admin.client, ws.id, cf({ field_id: status.id, none_of: [approved] }))).toEqual([
      "a2.jpg",
      "a3.jpg",
    ]);
    expect(await listed(admin.client, ws.id, cf({ field_id: ch.id, any_of: [print] }))).toEqual(["a0.jpg"]);
    expect(await listed(admin.client, ws.id, cf({ field_id: ch.id, all_of: [web, print] }))).toEqual(["a0.jpg"]);
    expect(await listed(admin.client, ws.id, cf({ field_id: ch.id, any_of: [web] }))).toEqual(["a0.jpg", "a1.jpg"]);
    expect(await listed(admin.client, ws.id, cf({ field_id: notes.id, text_contains: "hero shot" }))).toEqual([
      "a3.jpg",
    ]);
    expect(
      await listed(admin.client, ws.id, cf({ field_id: due.id, date_from: "2026-12-01", date_to: "2026-12-31" })),
    ).toEqual(["a1.jpg"]);
    expect(await listed(admin.client, ws.id, cf({ field_id: due.id, date_from: "2026-12-02" }))).toEqual(["a2.jpg"]);
    expect(await listed(admin.client, ws.id, cf({ field_id: ch.id, is_empty: true }))).toEqual(["a2.jpg", "a3.jpg"]);
    expect(await listed(admin.client, ws.id, cf({ field_id: status.id, is_empty: false }))).toEqual([
      "a0.jpg",
      "a1.jpg",
      "a2.jpg",
    ]);
    expect(
      await listed(
        admin.client,
        ws.id,
        cf({ field_id: status.id, any_of: [approved] }, { field_id: ch.id, none_of: [print] }),
      ),
    ).toEqual(["a1.jpg"]);
    // Spec 01's words for the top-level filters work here too: includes = any_of, excludes = none_of.
    expect(await listed(admin.client, ws.id, cf({ field_id: status.id, includes: [approved] }))).toEqual([
      "a0.jpg",
      "a1.jpg",
    ]);
    expect(await listed(admin.client, ws.id, cf({ field_id: status.id, excludes: [approved] }))).toEqual([
      "a2.jpg",
      "a3.jpg",
    ]);
    expect(
      await listed(admin.client, ws.id, cf({ field_id: ch.id, includes: [web], excludes: [print], any_of: [web] })),
    ).toEqual(["a1.jpg"]);
    expect(
      await listed(admin.client, ws.id, {
        or_groups: [{ custom_fields: [{ field_id: status.id, includes: [draft] }] }],
      }),
    ).toEqual(["a2.jpg"]);
    // Text values and option labels are part of search.
    expect(await listed(admin.client, ws.id, { search: "retouch" })).toEqual([]);
    expect(await listed(admin.client, ws.id, { search: "hero shot" })).toEqual(["a3.jpg"]);
    expect(await listed(admin.client, ws.id, { search: "print" })).toEqual(["a0.jpg"]);
    await set(admin.client, ws.id, notes.id, { asset_ids: [a3!], text_value: "needs a retouch" });
    expect(await listed(admin.client, ws.id, { search: "retouch" })).toEqual(["a3.jpg"]);
    expect(
      await listed(admin.client, ws.id, {
        or_groups: [
          { custom_fields: [{ field_id: status.id, any_of: [draft] }] },
          { custom_fields: [{ field_id: notes.id, text_contains: "retouch" }] },
        ],
      }),
    ).toEqual(["a2.jpg", "a3.jpg"]);
  });
});
