import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingTestEnv } from "../../../test/billing-env.ts";
import { type TestEnv, workspaceWith } from "../../../test/harness.ts";

/** Plan limits count every version's bytes (issue 29), on the test plans (Free: 1000 bytes, files up to 500). */
let b: Awaited<ReturnType<typeof billingTestEnv>>;
let env: TestEnv;
beforeAll(async () => {
  b = await billingTestEnv();
  env = b.env;
});
afterAll(() => b.close());

describe("storage with versions", () => {
  it("counts each version's bytes from its upload's start, deleted versions too, refusing one past the plan", async () => {
    const { ws, admin } = await workspaceWith(env);
    const start = (body: Record<string, unknown>) => admin.client.post(`/workspaces/${ws.id}/assets/upload`, body);
    const first = await start({ name: "a.bin", size: 400 });
    expect(first.statusCode, first.body).toBe(200);
    const id = first.json().asset_id;
    const v2 = await start({ name: "a2.bin", size: 400, version_of: id });
    expect(v2.statusCode, v2.body).toBe(200);
    const v3 = await start({ name: "a3.bin", size: 300, version_of: id });
    expect(v3.statusCode).toBe(402);
    expect(v3.json()).toMatchObject({ code: "PLAN_LIMIT" });
    expect(v3.json().detail).toMatch(/Storage limit reached: 800 B of 1000 B used on the Free plan/);
    // A version in Recently deleted still holds its bytes until it is purged.
    const del = await admin.client.del(`/workspaces/${ws.id}/assets/${id}/versions/${v2.json().version_id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await start({ name: "a3.bin", size: 300, version_of: id })).statusCode).toBe(402);
    const purged = await admin.client.post(`/workspaces/${ws.id}/recently-deleted/purge`, {
      version_ids: [v2.json().version_id],
    });
    expect(purged.json()).toMatchObject({ versions: 1 });
    const v4 = await start({ name: "a4.bin", size: 400, version_of: id });
    expect(v4.statusCode, v4.body).toBe(200);
    // The asset itself counts once: its row and its first version are the same file.
    const other = await start({ name: "b.bin", size: 200 });
    expect(other.statusCode, other.body).toBe(200);
    expect((await start({ name: "c.bin", size: 1 })).statusCode).toBe(402);
  });
});
