import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv, uploadBytes, waitForAsset, workspaceWith } from "../../test/harness.ts";

const TOKEN = "metrics-token-0123456789";

describe("/metrics", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv({ METRICS_TOKEN: TOKEN, AI_TAGS: "0" });
  });
  afterAll(() => env?.close());

  const scrape = (authorization?: string) =>
    env.app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });

  it("is hidden without the token, and shows route latency, job and failure figures with it", async () => {
    expect((await scrape()).statusCode).toBe(404);
    expect((await scrape("Bearer wrong-token-0123456789")).statusCode).toBe(404);

    const { ws, admin } = await workspaceWith(env);
    // A truncated JPEG: the pipeline ends it in error, which the failure counter must show.
    const broken = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
    const id = await uploadBytes(admin.client, ws.id, "broken.jpg", broken);
    const asset = await waitForAsset(admin.client, ws.id, id);
    expect(asset.status).toBe("error");

    // The asset shows `error` as soon as the job has written it; the job's own duration is recorded
    // when its handler returns, a moment later.
    const jobDone = /hangar_job_duration_seconds_count\{queue="process-asset",status="completed"\} [1-9]/;
    await expect.poll(async () => (await scrape(`Bearer ${TOKEN}`)).body, { timeout: 10_000 }).toMatch(jobDone);
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toMatch(
      /hangar_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/workspaces\/:id\/assets\/:assetId",status="200"\} [1-9]/,
    );
    expect(text).toMatch(jobDone);
    // The label is the reason's fixed part, without the tool's detail after it.
    expect(asset.error).toMatch(/^The image is corrupt or truncated \(/);
    expect(text).toContain('hangar_pipeline_failures_total{reason="The image is corrupt or truncated"} 1');
    expect(text).toMatch(/hangar_queue_jobs\{queue="process-asset",state="ready"\} \d+/);
    expect(text).toMatch(/nodejs_eventloop_lag_p99_seconds \d/);
    // Raw ids never become labels: only route patterns.
    expect(text).not.toContain(id);
  });

  it("answers loopback callers when no token is configured, nobody else", async () => {
    const open = await createTestEnv({ AI_TAGS: "0" }, { work: false });
    try {
      const local = await open.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1" });
      expect(local.statusCode).toBe(200);
      const remote = await open.app.inject({ method: "GET", url: "/metrics", remoteAddress: "203.0.113.9" });
      expect(remote.statusCode).toBe(404);
      // X-Forwarded-For cannot fake the loopback.
      const forged = await open.app.inject({
        method: "GET",
        url: "/metrics",
        remoteAddress: "203.0.113.9",
        headers: { "x-forwarded-for": "127.0.0.1" },
      });
      expect(forged.statusCode).toBe(404);
    } finally {
      await open.close();
    }
  });
});
