import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

describe("comments under a race", () => {
  it("replies posted while their thread is deleted either land (and go with the thread) or answer 404; never 500, no orphan", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const asset = await env.rt.db
      .insertInto("assets")
      .values({ workspace_id: ws.id, name: "race.jpg", status: "COMPLETED", is_temp: false, file_type: "IMAGE" })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let round = 0; round < 5; round++) {
      const root = await admin.client.post(`/workspaces/${ws.id}/comments`, {
        content_type: "asset",
        object_id: asset.id,
        text: `thread ${round}`,
      });
      expect(root.statusCode, root.body).toBe(201);
      const rootId = root.json().id as string;
      const replies = Array.from({ length: 12 }, (_, i) =>
        members.COMMENTER!.client.post(`/workspaces/${ws.id}/comments`, {
          content_type: "asset",
          object_id: asset.id,
          parent_id: rootId,
          text: `reply ${i}`,
        }),
      );
      const [removed, ...answers] = await Promise.all([
        admin.client.del(`/workspaces/${ws.id}/comments/${rootId}`),
        ...replies,
      ]);
      expect(removed.statusCode, removed.body).toBeLessThan(300);
      for (const a of answers) {
        expect([201, 404], a.body).toContain(a.statusCode);
        if (a.statusCode === 404) expect(a.json().detail).toBe("The comment you reply to is gone.");
      }
      // Whatever landed went with its thread: nothing of it is left.
      const left = await env.rt.db.selectFrom("comments").select("id").where("thread_id", "=", rootId).execute();
      expect(left).toEqual([]);
    }
  });
});
