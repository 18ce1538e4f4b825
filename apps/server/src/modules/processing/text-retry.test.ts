import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv, uploadBytes, waitForAsset, workspaceWith } from "../../../test/harness.ts";
import { READ_TEXT_RETRIES } from "../../jobs/read-text.ts";

/**
 * Issue 27: a read that runs over its CPU budget is no failure of the asset's text. A 1 ms budget
 * (config, so no clock is involved) sends every budgeted try over it: the text says pending, the job
 * is tried again after a backoff, and the last try, without a budget, reads it.
 */
let env: TestEnv;
let ctx: Awaited<ReturnType<typeof workspaceWith>>;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "1", OCR_CPU_BUDGET_MS: "1", OCR_RETRY_DELAY_SECONDS: "1" });
  ctx = await workspaceWith(env);
});
afterAll(() => env.close());

describe("text over its CPU budget", () => {
  it("stays pending while it is tried again with backoff, and is finally read", { timeout: 180_000 }, async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="330"><rect width="100%" height="100%" fill="#fff"/><text x="70" y="200" font-family="DejaVu Sans" font-size="90" fill="#111">Hangar invoice 2026</text></svg>`;
    const id = await uploadBytes(
      ctx.admin.client,
      ctx.ws.id,
      "invoice.png",
      await sharp(Buffer.from(svg)).png().toBuffer(),
    );
    expect((await waitForAsset(ctx.admin.client, ctx.ws.id, id)).status).toBe("COMPLETED");
    const boss = env.rt.jobs.boss;
    const job = async () => (await boss.findJobs<{ asset_id: string }>("read-text", { data: { asset_id: id } }))[0];
    const seen = new Set<string>();
    const retriesSeen = new Set<number>();
    let text: { status: string; text: string; error: string | null };
    for (;;) {
      const res = await ctx.admin.client.get(`/workspaces/${ctx.ws.id}/assets/${id}/recognised-text`);
      text = res.json();
      seen.add(text.status);
      const j = await job();
      if (j) retriesSeen.add(j.retryCount);
      if (text.status !== "pending") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // Never reported as failed on the way: pending, then done.
    expect([...seen]).toEqual(["pending", "done"]);
    expect(text.text.toLowerCase()).toContain("invoice");
    // The text is written before the handler returns; pg-boss marks the job completed after that.
    let final = await job();
    while (final?.state === "active") {
      await new Promise((r) => setTimeout(r, 100));
      final = await job();
    }
    expect(final).toMatchObject({ state: "completed", retryCount: READ_TEXT_RETRIES });
    expect(Math.max(...retriesSeen)).toBe(READ_TEXT_RETRIES);
    // The retries wait with a backoff (pg-boss doubles the delay each time).
    expect(await boss.getQueue("read-text")).toMatchObject({ retryBackoff: true, retryDelay: 1 });
  });
});
