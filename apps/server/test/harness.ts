import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Role } from "@hangar/contract";
import type { LightMyRequestResponse } from "fastify";
import { type Logger, pino } from "pino";
import { inject } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createDb, createPool, migrateToLatest } from "../src/db/db.ts";
import { hashPassword } from "../src/modules/auth/passwords.ts";
import type { App } from "../src/platform/http.ts";
import type { ActorResolver } from "../src/platform/session-hook.ts";
import { createRuntime, type Runtime } from "../src/runtime.ts";
import { freshDatabase } from "./databases.ts";
import { recordRouteStatuses } from "./route-coverage.ts";
import { type S3TestServer, startS3Server } from "./s3-server.ts";

export interface TestEnv {
  rt: Runtime;
  app: App;
  /** The database this env runs on (the run's shared one unless `ownDatabase`). */
  databaseUrl: string;
  close(): Promise<void>;
}

/** Which store the suites run on: disk by default; `TEST_STORAGE=s3` starts an S3 server per env. */
export const testStorage = process.env.TEST_STORAGE === "s3" ? "s3" : "disk";

/** A real app on the run's real database; workers on, so queued mail is delivered. */
export async function createTestEnv(
  env: Record<string, string> = {},
  opts: {
    work?: boolean;
    resolveActor?: ActorResolver;
    log?: Logger;
    /**
     * A new migrated database for this env alone (dropped at close). Background work that reads
     * every workspace's rows (the webhook outbox) then sees only this env's: on the shared database,
     * another file's env may take an event, queue its delivery in its own job schema and close before
     * working it, leaving it to the next minute's sweep.
     */
    ownDatabase?: boolean;
  } = {},
): Promise<TestEnv> {
  const own = opts.ownDatabase ? await freshDatabase() : null;
  if (own) {
    const db = createDb(createPool(own.url, 2, pino({ level: "silent" })));
    await migrateToLatest(db);
    await db.destroy();
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "hangar-test-data-"));
  const s3: S3TestServer | null = testStorage === "s3" && !env.STORAGE ? await startS3Server() : null;
  const config = loadConfig({
    ...s3?.env,
    DATA_DIR: dataDir,
    // Each test env gets its own job queue: envs differ (data dir, SMTP, AI), so none may take another's jobs.
    JOBS_SCHEMA: `pgboss_t${randomUUID().replace(/-/g, "").slice(0, 12)}`,
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    PUBLIC_URL: "http://hangar.test",
    DEMO_ACCOUNT: "0",
    // Face detection loads its models in a thread: only the tests of faces turn it on.
    FACES: "0",
    // Webhooks may call receivers on this machine (issue 36). Envs sharing a database may deliver one
    // another's events: all of them allow the same. The refusal tests use an env that allows nothing
    // and no workers (their deliveries are made in the request).
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
    ...(own ? { DATABASE_URL: own.url } : {}),
    ...env,
  });
  const databaseUrl = config.DATABASE_URL ?? inject("databaseUrl");
  const rt = createRuntime(config, databaseUrl, opts.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }));
  await rt.jobs.start(rt.jobDefinitions, { work: opts.work ?? true, concurrency: 1 });
  const app = await buildApp(rt, { resolveActor: opts.resolveActor });
  recordRouteStatuses(app, inject("routeCoverageDir"), rt.db);
  await app.ready();
  return {
    rt,
    app,
    databaseUrl,
    async close() {
      await app.close();
      await rt.close();
      await s3?.close();
      await own?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type Body = Record<string, unknown> | unknown[] | undefined;

/** A browser-like client: keeps cookies, fetches and sends the CSRF token like the web app. */
export class Client {
  cookies = new Map<string, string>();
  csrf: string | null = null;
  /** Each client has its own address, as real clients do, so per-IP limits do not bleed across tests. */
  readonly ip =
    `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  constructor(readonly app: App) {}

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  private keep(res: LightMyRequestResponse) {
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      // The CSRF token is bound to the session: a new session needs a new token, as the web app refetches.
      if (c.name === "hangar_session" && c.value !== this.cookies.get(c.name)) this.csrf = null;
      const gone = c.value === "" || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now());
      if (gone) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
  async fetchCsrf(): Promise<string> {
    const res = await this.app.inject({
      method: "GET",
      url: "/api/v1/users/set-csrf-token",
      headers: { cookie: this.cookieHeader() },
      remoteAddress: this.ip,
    });
    this.keep(res);
    const token: string = res.json().data.csrftoken;
    this.csrf = token;
    return token;
  }
  async request(
    method: string,
    url: string,
    body?: Body,
    opts: { csrf?: boolean; headers?: Record<string, string>; payload?: Buffer | string } = {},
  ) {
    const mutating = method !== "GET" && method !== "HEAD";
    if (mutating && opts.csrf !== false && !this.csrf) await this.fetchCsrf();
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    if (mutating && opts.csrf !== false && this.csrf) headers["x-csrftoken"] = this.csrf;
    const res = await this.app.inject({
      method: method as "GET",
      remoteAddress: this.ip,
      url: /^\/(api\/|media\/|healthz|readyz)/.test(url) ? url : `/api/v1${url}`,
      headers,
      ...(opts.payload !== undefined
        ? { payload: opts.payload }
        : body !== undefined
          ? { payload: body as object }
          : {}),
    });
    this.keep(res);
    return res;
  }
  get = (url: string) => this.request("GET", url);
  post = (url: string, body?: Body) => this.request("POST", url, body ?? {});
  put = (url: string, body?: Body) => this.request("PUT", url, body ?? {});
  patch = (url: string, body?: Body) => this.request("PATCH", url, body ?? {});
  del = (url: string, body?: Body) => this.request("DELETE", url, body);
}

export const uniqueEmail = (prefix = "user") => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
export const PASSWORD = "correct horse battery";

let cachedHash: Promise<string> | undefined;

/** Factory: a verified user, signed in through the real login route. */
export async function signedInUser(env: TestEnv, opts: { first_name?: string } = {}) {
  cachedHash ??= hashPassword(PASSWORD);
  const email = uniqueEmail();
  const row = await env.rt.services.users.create({
    email,
    password_hash: await cachedHash,
    first_name: opts.first_name ?? "Test",
    last_name: "User",
    email_verified_at: new Date(),
  });
  const client = new Client(env.app);
  const res = await client.post("/users/login", { email, password: PASSWORD });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return { client, user: row!, email };
}

/** Factory: a workspace with an admin, plus members of the given roles, each with their own client. */
export async function workspaceWith(env: TestEnv, roles: Role[] = []) {
  const admin = await signedInUser(env, { first_name: "Admin" });
  const ws = (await admin.client.post("/workspaces", { name: `WS ${randomUUID().slice(0, 6)}` })).json();
  const members: Record<string, Awaited<ReturnType<typeof signedInUser>>> = {};
  for (const role of roles) {
    const m = await signedInUser(env, { first_name: role });
    await env.rt.db.insertInto("memberships").values({ workspace_id: ws.id, user_id: m.user.id, role }).execute();
    members[role] = m;
  }
  return { ws: ws as { id: string; name: string }, admin, members };
}

/** Waits for a mail to arrive in the dev outbox (delivered by the job worker). */
export async function waitForOutboxMail(env: TestEnv, to: string, subjectPart: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const m = await env.rt.db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("to_address", "=", to)
      .where("subject", "ilike", `%${subjectPart}%`)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    if (m) return m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} about "${subjectPart}" within ${timeoutMs} ms`);
}

export const linkToken = (text: string, path: string) => {
  const m = new RegExp(`${path.replace(/[/?]/g, (c) => `\\${c}`)}([A-Za-z0-9_-]+)`).exec(text);
  if (!m?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return m[1];
};

/** A multipart/form-data body, built by hand so tests control every byte (hostile names included). */
export function multipartBody(
  fields: Array<[string, string]>,
  files: Array<{ field: string; filename: string; type?: string; data: Buffer }>,
) {
  const boundary = `----hangar${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
      f.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** Polls an asset until it leaves `uploading`/`processing` (the pipeline runs in this process's workers). */
export async function waitForAsset(client: Client, workspaceId: string, assetId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const a = (await client.get(`/workspaces/${workspaceId}/assets/${assetId}`)).json();
    if (a.status === "COMPLETED" || a.status === "error") return a;
    if (Date.now() > until) throw new Error(`asset ${assetId} still ${a.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A response of our app (inject) or of another server (fetch), in the shape tests read. */
export interface AnyResponse {
  statusCode: number;
  headers: Record<string, string | undefined>;
  rawPayload: Buffer;
  body: string;
}

/**
 * A request to a URL the API handed out: our own paths go through `inject`, absolute URLs (S3
 * presigned ones) over the network with fetch, as a browser would.
 */
export async function requestUrl(
  app: App,
  method: "GET" | "PUT",
  url: string,
  opts: { payload?: Buffer; headers?: Record<string, string> } = {},
): Promise<AnyResponse> {
  if (!/^https?:\/\//.test(url)) {
    const r = await app.inject({ method, url, payload: opts.payload, headers: opts.headers });
    return {
      statusCode: r.statusCode,
      headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, v === undefined ? v : String(v)])),
      rawPayload: r.rawPayload,
      body: r.body,
    };
  }
  const body = opts.payload ? new Uint8Array(opts.payload) : undefined;
  const res = await fetch(url, { method, body, headers: opts.headers });
  const raw = Buffer.from(await res.arrayBuffer());
  return {
    statusCode: res.status,
    headers: Object.fromEntries(res.headers),
    rawPayload: raw,
    body: raw.toString("utf8"),
  };
}

/** PUTs upload bytes to a part or direct URL (ours or S3's), like the web client. */
export const putBytes = (app: App, url: string, data: Buffer, headers: Record<string, string> = {}) =>
  requestUrl(app, "PUT", url, { payload: data, headers: { "content-type": "application/octet-stream", ...headers } });

/** Uploads bytes through the real protocol (direct or multipart) and answers the asset id. */
export async function uploadBytes(client: Client, workspaceId: string, name: string, data: Buffer, boardId?: string) {
  const init = await client.post(`/workspaces/${workspaceId}/assets/upload`, {
    name,
    size: data.length,
    board_id: boardId ?? null,
  });
  if (init.statusCode !== 200) throw new Error(`upload init failed: ${init.statusCode} ${init.body}`);
  const answer = init.json();
  const complete = async (parts: Array<{ part_number: number; etag: string }>) => {
    const done = await client.post(`/workspaces/${workspaceId}/assets/upload/complete`, {
      upload_id: answer.upload_id,
      key: answer.key,
      parts,
    });
    if (done.statusCode !== 200) throw new Error(`complete failed: ${done.statusCode} ${done.body}`);
  };
  if (answer.direct_url) {
    const r = await putBytes(client.app, answer.direct_url, data);
    if (r.statusCode !== 200) throw new Error(`direct PUT failed: ${r.statusCode} ${r.body}`);
    // On disk the one PUT finishes a direct upload; S3 cannot tell us, so the client completes (as the web app does).
    if (/^https?:/.test(answer.direct_url)) await complete([{ part_number: 1, etag: r.headers.etag as string }]);
    return answer.asset_id as string;
  }
  const parts = [];
  for (const p of answer.parts as Array<{ part_number: number; start_byte: number; end_byte: number; url: string }>) {
    const r = await putBytes(client.app, p.url, data.subarray(p.start_byte, p.end_byte + 1));
    if (r.statusCode !== 200) throw new Error(`part PUT failed: ${r.statusCode} ${r.body}`);
    parts.push({ part_number: p.part_number, etag: r.headers.etag as string });
  }
  await complete(parts);
  return answer.asset_id as string;
}
