import { randomUUID } from "node:crypto";
import { DEFAULT_SHARE_FLAGS } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, signedInUser, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import type { UserActor, VisitorActor } from "../../platform/actor.ts";
import { createLiveService, type LiveService } from "./index.ts";

/**
 * Who may follow a workspace's live events, asked of the access layer (policy.ts): when the stream
 * opens, and again by its heartbeat while it lasts, each time as a new question (a removal must be
 * seen even though the stream's request already had its answer).
 */
let env: TestEnv;
let live: LiveService;
beforeAll(async () => {
  env = await createTestEnv({}, { work: false });
  live = createLiveService({ access: env.rt.access });
});
afterAll(() => env.close());

const actorOf = (u: Awaited<ReturnType<typeof signedInUser>>): UserActor => ({
  kind: "user",
  userId: u.user.id,
  sessionId: randomUUID(),
  user: u.user,
});

describe("the live stream's admission", () => {
  it("admits a member of any role; an outsider, a visitor and no one signed in are refused", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const commenter = actorOf(members.COMMENTER!);
    await expect(live.admit(commenter, ws.id)).resolves.toBe(commenter);
    await expect(live.admit(actorOf(admin), ws.id)).resolves.toMatchObject({ userId: admin.user.id });
    const outsider = actorOf(await signedInUser(env));
    await expect(live.admit(outsider, ws.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(live.admit(outsider, randomUUID())).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(live.stillAdmitted(outsider, ws.id)).resolves.toBe(false);
    const visitor: VisitorActor = {
      kind: "visitor",
      linkId: randomUUID(),
      workspaceId: ws.id,
      content: { kind: "board", id: randomUUID() },
      flags: DEFAULT_SHARE_FLAGS,
      unlocked: true,
    };
    await expect(live.admit(visitor, ws.id)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(live.admit({ kind: "anonymous" }, ws.id)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("stops admitting a member once removed, though their stream's request was admitted before", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const editor = actorOf(members.EDITOR!);
    await live.admit(editor, ws.id);
    await expect(live.stillAdmitted(editor, ws.id)).resolves.toBe(true);
    const removed = await admin.client.del(`/workspaces/${ws.id}/members/${editor.userId}`);
    expect(removed.statusCode).toBe(200);
    await expect(live.stillAdmitted(editor, ws.id)).resolves.toBe(false);
    // The admin's stream ends too once the workspace is deleted.
    const owner = actorOf(admin);
    await expect(live.stillAdmitted(owner, ws.id)).resolves.toBe(true);
    expect((await admin.client.del(`/workspaces/${ws.id}`)).statusCode).toBe(200);
    await expect(live.stillAdmitted(owner, ws.id)).resolves.toBe(false);
  });
});
