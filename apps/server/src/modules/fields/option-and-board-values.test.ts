import { type CustomField, FieldOption, FieldValueList } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, signedInUser, type TestEnv, workspaceWith } from "../../../test/harness.ts";

/**
 * The two field routes the web uses that no other suite saw succeed: renaming and recolouring an
 * option (the options editor), and reading a board's own values (the board's fields panel).
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

async function statusField(ws: string, c: Awaited<ReturnType<typeof workspaceWith>>["admin"]["client"]) {
  const res = await c.post(`/workspaces/${ws}/fields`, {
    title: "Status",
    field_type: "SINGLE_SELECT",
    options: [
      { label: "Draft", color: "#9e9e9e" },
      { label: "Approved", color: "#2b8a3e" },
    ],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CustomField;
}

describe("PUT an option", () => {
  it("an ADMIN renames and recolours it; a label taken in the field is 409, a bad colour 422; an EDITOR 403, an outsider 404", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const f = await statusField(ws.id, admin.client);
    const [draft, approved] = f.options as [FieldOption, FieldOption];
    const url = (optId: string, fieldId = f.id) => `/workspaces/${ws.id}/custom-fields/${fieldId}/options/${optId}`;

    const renamed = await admin.client.put(url(draft.id), { label: "In progress", color: "#1971c2" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(FieldOption.parse(renamed.json())).toMatchObject({ id: draft.id, label: "In progress", color: "#1971c2" });
    const listed = (await admin.client.get(`/workspaces/${ws.id}/fields`)).json() as CustomField[];
    expect(listed.find((x) => x.id === f.id)!.options.map((o) => [o.label, o.color])).toEqual([
      ["In progress", "#1971c2"],
      ["Approved", "#2b8a3e"],
    ]);
    // Only the colour: the label stays.
    const recoloured = await admin.client.put(url(approved.id), { color: "#e8590c" });
    expect(recoloured.json()).toMatchObject({ label: "Approved", color: "#e8590c" });

    const taken = await admin.client.put(url(approved.id), { label: "in progress" });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json().detail).toBeTruthy();
    const badColour = await admin.client.put(url(approved.id), { color: "orange" });
    expect(badColour.statusCode).toBe(422);
    expect(badColour.json().detail).toBeTruthy();
    expect((await admin.client.put(url(approved.id), {})).statusCode).toBe(422);

    expect((await members.EDITOR!.client.put(url(approved.id), { label: "Mine" })).statusCode).toBe(403);
    const outsider = await signedInUser(env);
    expect((await outsider.client.put(url(approved.id), { label: "Theirs" })).statusCode).toBe(404);
    // An option of another field under this field's id is not found.
    const other = await admin.client.post(`/workspaces/${ws.id}/fields`, {
      title: "Channel",
      field_type: "SINGLE_SELECT",
      options: [{ label: "Web", color: "#1971c2" }],
    });
    expect((await admin.client.put(url(approved.id, other.json().id), { label: "Moved" })).statusCode).toBe(404);
  });
});

describe("GET a board's values", () => {
  it("answers the board's own values to any member; another workspace's board and an outsider get 404", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const f = await statusField(ws.id, admin.client);
    const board = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Spring" })).json().id as string;
    const url = `/workspaces/${ws.id}/boards/${board}/field-values`;

    const empty = await members.COMMENTER!.client.get(url);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(FieldValueList.parse(empty.json()).filter((v) => v.option_value)).toEqual([]);

    const set = await admin.client.post(`/workspaces/${ws.id}/field-values/${f.id}`, {
      board_ids: [board],
      option_value_id: f.options[1]!.id,
    });
    expect(set.statusCode, set.body).toBe(200);
    const values = FieldValueList.parse((await members.COMMENTER!.client.get(url)).json());
    expect(values.filter((v) => v.field_id === f.id).map((v) => [v.option_value?.label, v.value_display])).toEqual([
      ["Approved", "Approved"],
    ]);

    const elsewhere = await workspaceWith(env);
    const theirBoard = (
      await elsewhere.admin.client.post(`/workspaces/${elsewhere.ws.id}/boards`, { name: "X" })
    ).json().id as string;
    expect((await admin.client.get(`/workspaces/${ws.id}/boards/${theirBoard}/field-values`)).statusCode).toBe(404);
    const outsider = await signedInUser(env);
    expect((await outsider.client.get(url)).statusCode).toBe(404);
  });
});
