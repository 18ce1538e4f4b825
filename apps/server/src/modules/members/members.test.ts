import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  linkToken,
  PASSWORD,
  signedInUser,
  type TestEnv,
  uniqueEmail,
  waitForOutboxMail,
  workspaceWith,
} from "../../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

async function inviteToken(admin: Client, wsId: string, email: string, role = "EDITOR") {
  const res = await admin.post(`/workspaces/${wsId}/invites`, { email, role });
  expect(res.statusCode).toBe(201);
  const mail = await waitForOutboxMail(env, email, "invited you");
  return { invite: res.json(), token: linkToken(mail.text_body, "/a/invite/") };
}

describe("members", () => {
  it("lists members with roles to every member", async () => {
    const { ws, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const res = await members.COMMENTER!.client.get(`/workspaces/${ws.id}/members`);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .map((m: { role: string }) => m.role)
        .sort(),
    ).toEqual(["ADMIN", "COMMENTER", "EDITOR"]);
  });

  it("lets ADMIN change roles; others get 403; the last ADMIN cannot be demoted or removed (409)", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const editorId = members.EDITOR!.user.id;
    expect(
      (await members.EDITOR!.client.put(`/workspaces/${ws.id}/members/${editorId}`, { role: "ADMIN" })).statusCode,
    ).toBe(403);
    expect((await members.COMMENTER!.client.del(`/workspaces/${ws.id}/members/${editorId}`)).statusCode).toBe(403);
    expect((await admin.client.put(`/workspaces/${ws.id}/members/${editorId}`, { role: "OWNER" })).statusCode).toBe(
      422,
    );

    const demote = await admin.client.put(`/workspaces/${ws.id}/members/${admin.user.id}`, { role: "EDITOR" });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().detail).toMatch(/at least one admin/);
    expect((await admin.client.del(`/workspaces/${ws.id}/members/${admin.user.id}`)).statusCode).toBe(409);

    const promoted = await admin.client.put(`/workspaces/${ws.id}/members/${editorId}`, { role: "ADMIN" });
    expect(promoted.json()).toMatchObject({ user_id: editorId, role: "ADMIN" });
    // Now there are two admins: the first may step down.
    expect(
      (await admin.client.put(`/workspaces/${ws.id}/members/${admin.user.id}`, { role: "COMMENTER" })).statusCode,
    ).toBe(200);
    expect((await admin.client.get(`/workspaces/${ws.id}`)).json().user_role).toBe("COMMENTER");
  });

  it("concurrent demotions never leave a workspace without an admin", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["ADMIN"]);
    const other = members.ADMIN!;
    const results = await Promise.all([
      admin.client.put(`/workspaces/${ws.id}/members/${admin.user.id}`, { role: "EDITOR" }),
      other.client.put(`/workspaces/${ws.id}/members/${other.user.id}`, { role: "EDITOR" }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const admins = await env.rt.db
      .selectFrom("memberships")
      .select("user_id")
      .where("workspace_id", "=", ws.id)
      .where("role", "=", "ADMIN")
      .execute();
    expect(admins).toHaveLength(1);
  });

  it("removing a member ends their access to that workspace only (issue 12: not their sessions); a member may leave", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const editor = members.EDITOR!;
    const own = await editor.client.post("/workspaces", { name: "Editor's own" });
    expect(own.statusCode).toBeLessThan(300);
    expect((await editor.client.get(`/workspaces/${ws.id}`)).statusCode).toBe(200);
    expect((await admin.client.del(`/workspaces/${ws.id}/members/${editor.user.id}`)).statusCode).toBe(200);
    expect((await editor.client.get(`/workspaces/${ws.id}`)).statusCode).toBe(404);
    expect((await editor.client.get("/users/me")).statusCode).toBe(200);
    expect((await editor.client.get(`/workspaces/${own.json().id}`)).statusCode).toBe(200);
    expect(
      (await members.COMMENTER!.client.del(`/workspaces/${ws.id}/members/${members.COMMENTER!.user.id}`)).statusCode,
    ).toBe(200);
    expect((await members.COMMENTER!.client.get(`/workspaces/${ws.id}`)).statusCode).toBe(404);
    expect((await admin.client.del(`/workspaces/${ws.id}/members/${members.COMMENTER!.user.id}`)).statusCode).toBe(404);
  });
});

describe("invitations", () => {
  it("invites by e-mail; a new user registers through the invite and joins with the role", async () => {
    const { ws, admin } = await workspaceWith(env);
    const email = uniqueEmail("invitee");
    const { token } = await inviteToken(admin.client, ws.id, email, "COMMENTER");
    expect(token.length).toBeGreaterThanOrEqual(22); // ≥128 bits in base64url

    const info = await new Client(env.app).get(`/invites/${token}/info`);
    expect(info.json()).toMatchObject({
      workspace_id: ws.id,
      workspace_name: ws.name,
      email,
      role: "COMMENTER",
      account_exists: false,
    });

    const wrong = await new Client(env.app).post("/users/register", {
      email: uniqueEmail(),
      password: PASSWORD,
      first_name: "X",
      invite_token: token,
    });
    expect(wrong.statusCode).toBe(422);

    const c = new Client(env.app);
    const reg = await c.post("/users/register", {
      email,
      password: PASSWORD,
      first_name: "Invited",
      invite_token: token,
    });
    expect(reg.json()).toMatchObject({ signed_in: true, data: { email, email_verified: true } });
    const list = (await c.get("/workspaces")).json();
    expect(list).toEqual([expect.objectContaining({ id: ws.id, user_role: "COMMENTER" })]);
    // Single use.
    expect((await new Client(env.app).get(`/invites/${token}/info`)).statusCode).toBe(404);
    expect((await admin.client.get(`/workspaces/${ws.id}/invites`)).json()).toEqual([]);
  });

  it("an existing user accepts while signed in; only the invited address may accept", async () => {
    const { ws, admin } = await workspaceWith(env);
    const invitee = await signedInUser(env);
    const stranger = await signedInUser(env);
    const { token } = await inviteToken(admin.client, ws.id, invitee.email, "EDITOR");
    expect((await new Client(env.app).get(`/invites/${token}/info`)).json().account_exists).toBe(true);
    expect((await stranger.client.post("/invites/accept", { token })).statusCode).toBe(403);
    const ok = await invitee.client.post("/invites/accept", { token });
    expect(ok.json()).toMatchObject({ status: "ok", data: { id: ws.id, user_role: "EDITOR" } });
    expect((await invitee.client.post("/invites/accept", { token })).statusCode).toBe(404);
  });

  it("lists and revokes pending invites (ADMIN only); a revoked or expired invite is dead", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    expect(
      (await members.EDITOR!.client.post(`/workspaces/${ws.id}/invites`, { email: uniqueEmail() })).statusCode,
    ).toBe(403);
    expect((await members.EDITOR!.client.get(`/workspaces/${ws.id}/invites`)).statusCode).toBe(403);
    expect((await admin.client.post(`/workspaces/${ws.id}/invites`, { email: members.EDITOR!.email })).statusCode).toBe(
      409,
    );
    expect((await admin.client.post(`/workspaces/${ws.id}/invites`, { email: "nope" })).statusCode).toBe(422);

    const a = await inviteToken(admin.client, ws.id, uniqueEmail());
    const b = await inviteToken(admin.client, ws.id, uniqueEmail());
    const list = (await admin.client.get(`/workspaces/${ws.id}/invites`)).json();
    expect(list).toHaveLength(2);
    expect((await admin.client.del(`/workspaces/${ws.id}/invites/${a.invite.id}`)).statusCode).toBe(200);
    expect((await new Client(env.app).get(`/invites/${a.token}/info`)).statusCode).toBe(404);

    await env.rt.db
      .updateTable("invites")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", b.invite.id)
      .execute();
    expect((await new Client(env.app).get(`/invites/${b.token}/info`)).statusCode).toBe(404);
    expect(new Date(a.invite.expires_at).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
  });

  it("an invite to a deleted workspace is dead", async () => {
    const { ws, admin } = await workspaceWith(env);
    const { token } = await inviteToken(admin.client, ws.id, uniqueEmail());
    await admin.client.del(`/workspaces/${ws.id}`);
    expect((await new Client(env.app).get(`/invites/${token}/info`)).statusCode).toBe(404);
  });
});
