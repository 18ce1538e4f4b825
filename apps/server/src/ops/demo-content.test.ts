import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, PASSWORD, signedInUser, type TestEnv, waitForAsset } from "../../test/harness.ts";
import { seedDemoContent } from "../seed.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" });
});
afterAll(() => env.close());

describe("demo workspace content", () => {
  it("adds boards and sample files that the real pipeline processes", { timeout: 180_000 }, async () => {
    const { client, email } = await signedInUser(env);
    const ws = (await client.post("/workspaces", { name: "Demo workspace" })).json() as { id: string };
    await seedDemoContent(env.app, env.rt, email, PASSWORD);

    const boards = (await client.get(`/workspaces/${ws.id}/boards?recursive=true`)).json() as Array<{
      name: string;
      children?: Array<{ name: string }>;
    }>;
    expect(boards.map((b) => b.name).sort()).toEqual(["Brand", "Campaigns", "Photography"]);
    expect(boards.find((b) => b.name === "Campaigns")?.children?.map((c) => c.name)).toEqual(["Summer 2026"]);

    // The listing shows assets once the pipeline has processed them.
    type Listed = { data: Array<{ id: string; name: string }> };
    let list: Listed = { data: [] };
    for (const until = Date.now() + 150_000; list.data.length < 8 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 500));
      list = (await client.post(`/workspaces/${ws.id}/assets`, { page_size: 50 })).json() as Listed;
    }
    expect(list.data.map((a) => a.name).sort()).toEqual([
      "Alpine lake.jpg",
      "Brand guidelines.pdf",
      "Brand palette.png",
      "Coastal sunrise.jpg",
      "Desert dunes.jpg",
      "Forest ridge.jpg",
      "Moonlit hills.jpg",
      "Product teaser.mp4",
    ]);
    const done = new Map<string, Record<string, unknown>>();
    for (const a of list.data) done.set(a.name, await waitForAsset(client, ws.id, a.id, 150_000));
    for (const [name, a] of done) expect(a.status, name).toBe("COMPLETED");
    expect(done.get("Brand guidelines.pdf")).toMatchObject({ file_type: "DOCUMENT", page_count: 4 });
    expect(done.get("Product teaser.mp4")).toMatchObject({ file_type: "VIDEO" });
    expect(Number(done.get("Product teaser.mp4")?.duration)).toBeCloseTo(6, 0);
    expect(done.get("Coastal sunrise.jpg")).toMatchObject({ file_type: "IMAGE", width: 1600, height: 1000 });
    expect(done.get("Coastal sunrise.jpg")?.tags).toEqual(expect.arrayContaining(["sunrise", "coast"]));
  });
});
