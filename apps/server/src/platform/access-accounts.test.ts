import { randomUUID } from "node:crypto";
import { DEFAULT_SHARE_FLAGS } from "@hangar/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, multipartBody, signedInUser, type TestEnv, workspaceWith } from "../../test/harness.ts";
import { AUTH } from "../modules/auth/policy.ts";
import { USER } from "../modules/users/policy.ts";
import { account } from "./access.ts";
import type { UserActor, VisitorActor } from "./actor.ts";

/**
 * Accounts through the one access layer (users and auth policies): a person's account lies in no
 * workspace. Its owner does everything to it; someone who shares a live workspace with them sees it
 * (name, avatar) and changes nothing (403); anyone else, visitors included, finds nothing (404).
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({}, { work: false });
});
afterAll(() => env.close());

const actorOf = (u: Awaited<ReturnType<typeof signedInUser>>): UserActor => ({
  kind: "user",
  userId: u.user.id,
  sessionId: randomUUID(),
  user: u.user,
});

describe("an account", () => {
  it("is its owner's; a co-member sees it and changes nothing; anyone else finds nothing", async () => {
    const access = env.rt.access;
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const mine = account(admin.user.id);
    const owner = actorOf(admin);
    for (const act of [USER.view, USER.edit, AUTH.changePassword, AUTH.changeEmail])
      await expect(access.require(owner, act, mine), act.name).resolves.toEqual({
        kind: "account",
        userId: admin.user.id,
        self: true,
      });

    // A co-member, whatever their role in the shared workspace, only sees.
    const editor = actorOf(members.EDITOR!);
    await expect(access.require(editor, USER.view, mine)).resolves.toMatchObject({ self: false });
    for (const act of [USER.edit, AUTH.changePassword, AUTH.changeEmail])
      await expect(access.require(editor, act, mine), act.name).rejects.toMatchObject({ code: "FORBIDDEN" });

    const outsider = actorOf(await signedInUser(env));
    const visitor: VisitorActor = {
      kind: "visitor",
      linkId: randomUUID(),
      workspaceId: ws.id,
      content: { kind: "board", id: randomUUID() },
      flags: DEFAULT_SHARE_FLAGS,
      unlocked: true,
    };
    for (const who of [outsider, visitor, { kind: "anonymous" as const }])
      for (const act of [USER.view, USER.edit])
        await expect(access.require(who, act, mine), `${who.kind} ${act.name}`).rejects.toMatchObject({
          code: "NOT_FOUND",
        });
    await expect(access.require(editor, USER.view, account("not-a-uuid"))).rejects.toMatchObject({
      code: "NOT_FOUND",
    });

    // No longer sharing a workspace (removed): nothing.
    expect((await admin.client.del(`/workspaces/${ws.id}/members/${editor.userId}`)).statusCode).toBe(200);
    await expect(access.require(editor, USER.view, mine)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("shows its avatar to a co-member of any role, 404 to an outsider", async () => {
    const { admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#113355" } })
      .png()
      .toBuffer();
    const up = await admin.client.request("POST", "/users/avatar/upload", undefined, {
      ...multipartBody([], [{ field: "avatar_file", filename: "me.png", data: png }]),
    });
    expect(up.statusCode, up.body).toBe(200);
    const url = `/users/${admin.user.id}/avatar`;
    expect((await members.COMMENTER!.client.get(url)).statusCode).toBe(200);
    const outsider = await signedInUser(env);
    expect((await outsider.client.get(url)).statusCode).toBe(404);
  });
});
