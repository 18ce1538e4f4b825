import { readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { WebhookDeliveryDetail, WebhookWithSecret } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, signedInUser, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { type Receiver, webhookReceiver } from "./receiver.fixture.ts";

/**
 * Webhook endpoints (issue 36): managing them (ADMINs only), the signature as docs/webhooks.md tells
 * receivers to check it (its `verify` block is run here), and the addresses a delivery may not reach.
 */
let env: TestEnv;
let rec: Receiver;
beforeAll(async () => {
  rec = await webhookReceiver();
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { ownDatabase: true });
});
afterAll(async () => {
  await env.close();
  await rec.close();
});

async function register(admin: Client, ws: string, body: Record<string, unknown>) {
  const res = await admin.post(`/workspaces/${ws}/webhooks`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as WebhookWithSecret;
}

/** The docs' verification recipe, as a module of its own. */
async function docsRecipe(): Promise<(secret: string, header: string, body: string | Buffer) => boolean> {
  const doc = await readFile(path.resolve(import.meta.dirname, "../../../../../docs/webhooks.md"), "utf8");
  const code = /```js verify\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!code) throw new Error("docs/webhooks.md has no ```js verify block");
  const file = path.join(os.tmpdir(), `hangar-verify-${process.pid}-${Date.now()}.mjs`);
  await writeFile(file, code);
  try {
    return (await import(pathToFileURL(file).href)).verifyHangarSignature;
  } finally {
    await rm(file, { force: true });
  }
}

describe("webhook endpoints", () => {
  it("an ADMIN registers an endpoint (secret answered once, sealed at rest), lists, edits, disables, rolls and deletes it", async () => {
    const { ws, admin } = await workspaceWith(env);
    const hook = await register(admin.client, ws.id, {
      url: ` ${rec.url("/crud")} `,
      events: ["comment.created", "asset.created", "asset.created"],
      description: "CI",
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(hook).toMatchObject({
      url: rec.url("/crud"),
      events: ["asset.created", "comment.created"],
      description: "CI",
      enabled: true,
      state: "enabled",
      created_by: { id: admin.user.id, email: admin.email },
      last_delivery: null,
    });
    const row = await env.rt.db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("id", "=", hook.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(hook.secret.slice(6));

    const list = await admin.client.get(`/workspaces/${ws.id}/webhooks`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((h: { id: string }) => h.id)).toEqual([hook.id]);
    expect(list.body).not.toContain(hook.secret);
    const one = await admin.client.get(`/workspaces/${ws.id}/webhooks/${hook.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.body).not.toContain(hook.secret);

    const url = `/workspaces/${ws.id}/webhooks/${hook.id}`;
    const edited = await admin.client.patch(url, { events: ["member.added"], description: "" });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ events: ["member.added"], description: "", state: "enabled" });
    const off = await admin.client.patch(url, { enabled: false });
    expect(off.json()).toMatchObject({ enabled: false, state: "disabled", disabled_reason: null });
    expect((await admin.client.patch(url, { enabled: true })).json()).toMatchObject({ state: "enabled" });

    const rolled = await admin.client.post(`${url}/roll-secret`);
    expect(rolled.statusCode).toBe(200);
    expect(rolled.json().secret).toMatch(/^whsec_/);
    expect(rolled.json().secret).not.toBe(hook.secret);

    expect((await admin.client.del(url)).statusCode).toBe(200);
    expect((await admin.client.get(url)).statusCode).toBe(404);
    expect((await admin.client.del(url)).statusCode).toBe(404);
  });

  it("refuses bad bodies with 422 and the field", async () => {
    const { ws, admin } = await workspaceWith(env);
    const url = `/workspaces/${ws.id}/webhooks`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: "ftp://example.com/x", events: ["asset.created"] }, "url"],
      [{ url: "not a url", events: ["asset.created"] }, "url"],
      [{ url: "https://user:pw@example.com/x", events: ["asset.created"] }, "url"],
      [{ url: "https://example.com/x", events: [] }, "events"],
      [{ url: "https://example.com/x", events: ["asset.exploded"] }, "events"],
      [{ url: "https://example.com/x", events: ["asset.created"], description: "d".repeat(201) }, "description"],
      // Private, and not in this env's allowed networks (127.0.0.0/8).
      [{ url: "http://10.1.2.3/hook", events: ["asset.created"] }, "url"],
    ];
    for (const [body, field] of cases) {
      const res = await admin.client.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.json().errors), JSON.stringify(body)).toContain(field);
    }
    const hook = await register(admin.client, ws.id, { url: rec.url("/bad"), events: ["asset.created"] });
    for (const body of [{}, { events: [] }, { url: "http://192.168.1.1/" }, { enabled: "yes" }]) {
      const res = await admin.client.patch(`${url}/${hook.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it("answers an outsider 404 and a member who is not an ADMIN 403 on every route", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const hook = await register(admin.client, ws.id, { url: rec.url("/access"), events: ["asset.created"] });
    const test = (await admin.client.post(`/workspaces/${ws.id}/webhooks/${hook.id}/test`)).json();
    const outsider = await signedInUser(env);
    const base = `/workspaces/${ws.id}/webhooks`;
    const calls: Array<(c: Client) => ReturnType<Client["get"]>> = [
      (c) => c.get(base),
      (c) => c.post(base, { url: rec.url("/x"), events: ["asset.created"] }),
      (c) => c.get(`${base}/${hook.id}`),
      (c) => c.patch(`${base}/${hook.id}`, { enabled: false }),
      (c) => c.del(`${base}/${hook.id}`),
      (c) => c.post(`${base}/${hook.id}/roll-secret`),
      (c) => c.post(`${base}/${hook.id}/test`),
      (c) => c.get(`${base}/${hook.id}/deliveries`),
      (c) => c.get(`${base}/${hook.id}/deliveries/${test.id}`),
      (c) => c.post(`${base}/${hook.id}/deliveries/${test.id}/redeliver`),
    ];
    for (const call of calls) {
      for (const m of [members.EDITOR!, members.COMMENTER!]) expect((await call(m.client)).statusCode).toBe(403);
      expect((await call(outsider.client)).statusCode).toBe(404);
    }
    // Nothing changed: the endpoint is there, enabled, with its one test delivery.
    const log = (await admin.client.get(`${base}/${hook.id}/deliveries`)).json();
    expect(log.data.map((d: { id: string }) => d.id)).toEqual([test.id]);
    expect((await admin.client.get(`${base}/${hook.id}`)).json().enabled).toBe(true);
    // Another workspace's ADMIN cannot reach it through their own workspace either.
    const other = await workspaceWith(env);
    expect((await other.admin.client.get(`/workspaces/${other.ws.id}/webhooks/${hook.id}`)).statusCode).toBe(404);
  });

  it("signs each delivery so the docs' recipe verifies it; the log keeps the answer's first 1 KB", async () => {
    const verify = await docsRecipe();
    const { ws, admin } = await workspaceWith(env);
    const hook = await register(admin.client, ws.id, { url: rec.url("/signed"), events: ["asset.created"] });
    rec.answerWith((h) => (h.path === "/signed" ? { status: 200, body: "é".repeat(1500) } : { status: 200 }));
    const res = await admin.client.post(`/workspaces/${ws.id}/webhooks/${hook.id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json() as WebhookDeliveryDetail;
    expect(d).toMatchObject({
      type: "webhook.test",
      status: "delivered",
      attempts: 1,
      response_status: 200,
      is_test: true,
    });
    expect(Buffer.byteLength(d.response_body!)).toBeLessThanOrEqual(1024);
    expect(d.response_body!.startsWith("é".repeat(500))).toBe(true);

    const [hit] = rec.on("/signed");
    expect(hit!.body).toBe(d.request_body);
    const body = JSON.parse(hit!.body);
    expect(body).toMatchObject({ id: d.event_id, type: "webhook.test", workspace_id: ws.id });
    expect(body.data.object).toMatchObject({ id: hook.id, url: rec.url("/signed") });
    expect(hit!.headers["content-type"]).toBe("application/json");
    expect(hit!.headers["hangar-event-id"]).toBe(d.event_id);
    const signature = String(hit!.headers["hangar-signature"]);
    expect(signature).toMatch(new RegExp(`^t=${hit!.headers["hangar-timestamp"]},v1=[0-9a-f]{64}$`));
    expect(verify(hook.secret, signature, hit!.body)).toBe(true);
    expect(verify(hook.secret, signature, Buffer.from(hit!.body))).toBe(true);
    // Another body, another secret, an old timestamp: refused.
    expect(verify(hook.secret, signature, hit!.body.replace("webhook.test", "webhook.tesT"))).toBe(false);
    expect(verify(`${hook.secret}x`, signature, hit!.body)).toBe(false);
    const old = signature.replace(/^t=\d+/, `t=${Math.floor(Date.now() / 1000) - 600}`);
    expect(verify(hook.secret, old, hit!.body)).toBe(false);

    // The endpoint shows its last delivery.
    const listed = (await admin.client.get(`/workspaces/${ws.id}/webhooks/${hook.id}`)).json();
    expect(listed.last_delivery).toMatchObject({ status: "delivered", response_status: 200 });
  });
});

describe("addresses a webhook may not reach (no allowed networks)", () => {
  let strict: TestEnv;
  beforeAll(async () => {
    // On this file's database, with no workers: it must not deliver the other env's events; its own
    // tests deliver in the request.
    strict = await createTestEnv(
      { AI_TAGS: "0", OCR: "0", WEBHOOK_ALLOWED_NETWORKS: "", DATABASE_URL: env.databaseUrl },
      { work: false },
    );
  });
  afterAll(() => strict.close());

  it("refuses loopback, private and link-local addresses in the URL (IPv4, IPv6, IPv4-mapped)", async () => {
    const { ws, admin } = await workspaceWith(strict);
    const cases: Array<[string, string]> = [
      [rec.url("/x"), "127.0.0.1, a loopback address"],
      [`http://[::1]:${rec.port}/x`, "::1, a loopback address"],
      [`http://[::ffff:127.0.0.1]:${rec.port}/x`, "127.0.0.1, a loopback address"],
      ["http://192.168.0.10/x", "192.168.0.10, a private address"],
      ["http://169.254.169.254/latest/meta-data", "169.254.169.254, a link-local address"],
      ["http://[fd00::1]/x", "fd00::1, a unique-local address"],
      ["http://0.0.0.0:80/x", "0.0.0.0, an unspecified address"],
    ];
    for (const [url, what] of cases) {
      const res = await admin.client.post(`/workspaces/${ws.id}/webhooks`, { url, events: ["asset.created"] });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().detail, url).toBe(
        `Webhooks may not call ${what}: only public addresses (the server's WEBHOOK_ALLOWED_NETWORKS can allow others).`,
      );
    }
    expect(rec.hits.filter((h) => h.path === "/x")).toEqual([]);
  });

  it("refuses a name that resolves to a loopback address when it delivers, and never connects", async () => {
    const { ws, admin } = await workspaceWith(strict);
    const hook = await register(admin.client, ws.id, {
      url: `http://localhost:${rec.port}/by-name`,
      events: ["asset.created"],
    });
    const res = await admin.client.post(`/workspaces/${ws.id}/webhooks/${hook.id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json() as WebhookDeliveryDetail;
    expect(d).toMatchObject({ status: "failed", response_status: null, attempts: 1 });
    expect(d.error).toMatch(/^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address\.$/);
    expect(rec.on("/by-name")).toEqual([]);
  });
});
