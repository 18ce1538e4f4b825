import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, signedInUser, type TestEnv, workspaceWith } from "../../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

describe("workspaces", () => {
  it("creates with the creator as ADMIN; lists and gets with user_role", async () => {
    const { client } = await signedInUser(env);
    const res = await client.post("/workspaces", { name: "  Brand assets  " });
    expect(res.statusCode).toBe(201);
    const ws = res.json();
    expect(ws).toMatchObject({ name: "Brand assets", user_role: "ADMIN", member_count: 1 });
    expect((await client.get("/workspaces")).json()).toEqual([ws]);
    expect((await client.get(`/workspaces/${ws.id}`)).json()).toEqual(ws);
  });

  it("validates names with 422 and detail", async () => {
    const { client } = await signedInUser(env);
    for (const name of ["", "   ", "x".repeat(101)]) {
      const res = await client.post("/workspaces", { name });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: "VALIDATION_FAILED", errors: [{ field: "name" }] });
    }
    expect((await client.post("/workspaces", {})).statusCode).toBe(422);
  });

  it("lets only ADMIN rename and delete; EDITOR and COMMENTER get 403; outsiders 404", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    for (const role of ["EDITOR", "COMMENTER"]) {
      const c = members[role]!.client;
      expect((await c.get(`/workspaces/${ws.id}`)).json().user_role).toBe(role);
      expect((await c.put(`/workspaces/${ws.id}`, { name: "Nope" })).statusCode).toBe(403);
      expect((await c.del(`/workspaces/${ws.id}`)).statusCode).toBe(403);
    }
    const outsider = await signedInUser(env);
    expect((await outsider.client.get(`/workspaces/${ws.id}`)).statusCode).toBe(404);
    expect((await outsider.client.put(`/workspaces/${ws.id}`, { name: "Mine" })).statusCode).toBe(404);
    expect((await outsider.client.get(`/workspaces/not-a-uuid`)).statusCode).toBe(404);
    const renamed = await admin.client.put(`/workspaces/${ws.id}`, { name: "Renamed" });
    expect(renamed.json().name).toBe("Renamed");
    expect((await members.COMMENTER!.client.get(`/workspaces/${ws.id}`)).json().member_count).toBe(3);
  });

  it("deletes softly: gone for everyone, restorable by an admin, purged after 30 days", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    expect((await admin.client.del(`/workspaces/${ws.id}`)).statusCode).toBe(200);
    expect((await admin.client.get(`/workspaces/${ws.id}`)).statusCode).toBe(404);
    expect((await members.EDITOR!.client.get("/workspaces")).json().map((w: { id: string }) => w.id)).not.toContain(
      ws.id,
    );
    expect((await members.EDITOR!.client.post(`/workspaces/${ws.id}/restore`)).statusCode).toBe(404);
    expect((await (await signedInUser(env)).client.post(`/workspaces/${ws.id}/restore`)).statusCode).toBe(404);
    const restored = await admin.client.post(`/workspaces/${ws.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().name).toBe(ws.name);

    await admin.client.del(`/workspaces/${ws.id}`);
    await env.rt.db
      .updateTable("workspaces")
      .set({ deleted_at: new Date(Date.now() - 31 * 86_400_000) })
      .where("id", "=", ws.id)
      .execute();
    await env.rt.services.workspaces.purgeExpired();
    const row = await env.rt.db.selectFrom("workspaces").select("id").where("id", "=", ws.id).executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it("keeps a workspace deleted 29 days ago", async () => {
    const { ws, admin } = await workspaceWith(env);
    await admin.client.del(`/workspaces/${ws.id}`);
    await env.rt.db
      .updateTable("workspaces")
      .set({ deleted_at: new Date(Date.now() - 29 * 86_400_000) })
      .where("id", "=", ws.id)
      .execute();
    await env.rt.services.workspaces.purgeExpired();
    expect((await admin.client.post(`/workspaces/${ws.id}/restore`)).statusCode).toBe(200);
  });

  it("answers errors in one shape: unknown route, malformed JSON", async () => {
    const { client } = await signedInUser(env);
    const unknown = await client.get(`/nope/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "NOT_FOUND" });
    const bad = await client.request("POST", "/workspaces", undefined, {
      payload: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: "BAD_REQUEST" });
    expect(typeof bad.json().detail).toBe("string");
  });
});
