import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { newVersion, png, processedAsset } from "../../../test/versions.ts";

/**
 * Who may do what with versions (issue 29): every member lists them; EDITOR and ADMIN upload, make
 * current, delete, stack and detach; a COMMENTER gets 403; a signed-in outsider 404, as for an asset
 * or a version that is not there.
 */
// Each test uploads and processes several files (PDF pages, on S3 too): minutes on a busy machine.
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

describe("the versions permission matrix", () => {
  it("answers each role on every versions call", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const outsider = (await workspaceWith(env)).admin.client;
    const a = await processedAsset(env, admin.client, ws.id, "matrix.png", await png("#010203"));
    const base = `/workspaces/${ws.id}/assets/${a}/versions`;
    /** Two processed versions and a third asset, fresh for each caller, so each call can succeed. */
    const fresh = async () => {
      const id = await processedAsset(env, admin.client, ws.id, "m.png", await png("#0a0b0c"));
      const v2 = (await newVersion(env, admin.client, ws.id, id, "m2.png", await png("#0c0b0a"))).version_id!;
      const other = await processedAsset(env, admin.client, ws.id, "o.png", await png("#0d0e0f"));
      return { id, v2, other };
    };
    type Call = (c: Client, f: Awaited<ReturnType<typeof fresh>>) => ReturnType<Client["get"]>;
    const calls: Record<string, Call> = {
      list: (c, f) => c.get(`/workspaces/${ws.id}/assets/${f.id}/versions`),
      upload: (c, f) => c.post(`/workspaces/${ws.id}/assets/upload`, { name: "n.png", size: 10, version_of: f.id }),
      current: (c, f) => c.post(`/workspaces/${ws.id}/assets/${f.id}/versions/${f.id}/current`),
      delete: (c, f) => c.del(`/workspaces/${ws.id}/assets/${f.id}/versions/${f.v2}`),
      stack: (c, f) => c.post(`/workspaces/${ws.id}/assets/${f.id}/versions/stack`, { asset_ids: [f.other] }),
      detach: (c, f) => c.post(`/workspaces/${ws.id}/assets/${f.id}/versions/${f.id}/detach`),
    };
    const expected: Record<string, Record<string, number>> = {
      ADMIN: { list: 200, upload: 200, current: 200, delete: 200, stack: 200, detach: 200 },
      EDITOR: { list: 200, upload: 200, current: 200, delete: 200, stack: 200, detach: 200 },
      COMMENTER: { list: 200, upload: 403, current: 403, delete: 403, stack: 403, detach: 403 },
      outsider: { list: 404, upload: 404, current: 404, delete: 404, stack: 404, detach: 404 },
    };
    const clients: Record<string, Client> = {
      ADMIN: admin.client,
      EDITOR: members.EDITOR!.client,
      COMMENTER: members.COMMENTER!.client,
      outsider,
    };
    const got: Record<string, Record<string, number>> = {};
    for (const [who, c] of Object.entries(clients)) {
      got[who] = {};
      for (const [name, call] of Object.entries(calls)) got[who]![name] = (await call(c, await fresh())).statusCode;
    }
    expect(got).toEqual(expected);

    // Not there: an unknown asset or version answers 404 to a member who could otherwise act.
    const unknown = "00000000-0000-4000-8000-000000000000";
    const c = admin.client;
    expect((await c.get(`/workspaces/${ws.id}/assets/${unknown}/versions`)).statusCode).toBe(404);
    expect((await c.post(`${base}/${unknown}/current`)).statusCode).toBe(404);
    expect((await c.del(`${base}/${unknown}`)).statusCode).toBe(404);
    expect((await c.post(`${base}/${unknown}/detach`)).statusCode).toBe(404);
    expect((await c.post(`${base}/stack`, { asset_ids: [unknown] })).statusCode).toBe(404);
    // A deleted asset's versions are not listed.
    await c.del(`/workspaces/${ws.id}/assets`, { asset_ids: [a] });
    expect((await c.get(base)).statusCode).toBe(404);
  }, 120_000);

  it("refuses a malformed stack body with 422", async () => {
    const { ws, admin } = await workspaceWith(env);
    const a = await processedAsset(env, admin.client, ws.id, "s.png", await png("#111213"));
    const url = `/workspaces/${ws.id}/assets/${a}/versions/stack`;
    for (const body of [{}, { asset_ids: [] }, { asset_ids: ["not-an-id"] }]) {
      const res = await admin.client.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
  }, 120_000);
});
