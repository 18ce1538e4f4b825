import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { type S3TestServer, startS3Server } from "../../apps/server/test/s3-server.ts";
import { card } from "./asset-grid-helpers.ts";
import { type E2EServer, startE2EServer } from "./hangar-server.ts";
import { screenshot } from "./screenshots.ts";

/**
 * The browser uploads straight to S3: a Hangar server of its own with STORAGE=s3 on an S3-protocol
 * server (s3rver on loopback, CORS for our origin with ETag exposed), the real upload dialog, a
 * multipart file and a direct one. The parts are PUT to S3's presigned URLs (never through Hangar),
 * the ETags are read from S3's answers and Hangar completes, hashes and processes the files.
 */
let s3: S3TestServer | undefined;
let server: E2EServer | undefined;
let baseUrl = "";
let demo = { email: "", password: "" };

test.beforeAll(async () => {
  test.setTimeout(150_000);
  server = await startE2EServer({
    label: "S3",
    host: "127.0.0.1",
    env: async (base) => {
      // The bucket's CORS names our origin, as a production bucket would (a retry on another port
      // starts the S3 server again for it).
      await s3?.close();
      s3 = await startS3Server({ bucket: "hangar-e2e", corsOrigins: [base] });
      return { ...s3.env, DEMO_ACCOUNT: "1", DEMO_CONTENT: "0", AI_TAGS: "0" };
    },
    // The first start prints the demo account it made: sign in with it.
    readyOutput: /password:\s+\S+/,
  });
  baseUrl = server.baseUrl;
  demo = {
    email: /e-mail:\s+(\S+)/.exec(server.output())?.[1] ?? "",
    password: /password:\s+(\S+)/.exec(server.output())?.[1] ?? "",
  };
});

test.afterAll(async () => {
  await server?.stop();
  await s3?.close();
});

async function call<T>(page: Page, method: "GET" | "POST", p: string, data?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (method !== "GET") {
    const csrf = await page.request.get(`${baseUrl}/api/v1/users/set-csrf-token`);
    headers["X-CSRFToken"] = ((await csrf.json()) as { data: { csrftoken: string } }).data.csrftoken;
  }
  const res = await page.request.fetch(`${baseUrl}/api/v1${p}`, { method, headers, data });
  if (!res.ok()) throw new Error(`${method} ${p} answered ${res.status()}: ${await res.text()}`);
  return (await res.json()) as T;
}

const dialog = (page: Page) => page.getByRole("dialog", { name: "Upload files" });
const item = (page: Page, name: string) => dialog(page).getByRole("listitem", { name, exact: true });
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

test("the upload dialog sends a multipart file and a small one straight to S3 (CORS, ETag exposed)", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await call(page, "POST", "/users/login", { email: demo.email, password: demo.password });
  const workspaces = await call<Array<{ id: string; name: string }>>(page, "GET", "/workspaces");
  const ws = workspaces.find((w) => w.name === "Demo workspace");
  expect(ws).toBeTruthy();

  // Every byte-carrying PUT, and where it went.
  const puts: Array<{ url: string; status: number; etag: string | null }> = [];
  page.on("response", async (res) => {
    if (res.request().method() !== "PUT") return;
    puts.push({ url: res.url(), status: res.status(), etag: await res.headerValue("etag") });
  });

  // A CORS or CSP refusal shows only as a network error in the dialog: print the browser's reason.
  page.on("console", (m) => {
    if (m.type() === "error") console.log(`browser: ${m.text().slice(0, 300)}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) console.log(`answer ${r.status()}: ${r.request().method()} ${r.url().slice(0, 200)}`);
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-s3-upload-"));
  const big = randomBytes(12 * 1024 * 1024 + 4321); // two parts of 8 MiB and the rest
  // A photo under 5 MiB: one presigned PUT; its thumbnail then comes from S3 through /media.
  const small = await sharp({
    create: {
      width: 900,
      height: 600,
      channels: 3,
      background: "#000",
      noise: { type: "gaussian", mean: 120, sigma: 50 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  writeFileSync(path.join(dir, "camera-roll.bin"), big);
  writeFileSync(path.join(dir, "harbour.jpg"), small);

  await page.goto(`/w/${ws!.id}/b/all`);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog(page)).toBeVisible();
  await dialog(page)
    .getByTestId("upload-files-input")
    .setInputFiles([path.join(dir, "camera-roll.bin"), path.join(dir, "harbour.jpg")]);
  for (const name of ["camera-roll.bin", "harbour.jpg"]) {
    await expect(item(page, name)).toHaveAttribute("data-status", /processing|COMPLETED/, { timeout: 60_000 });
  }
  await screenshot(page, "upload-s3-dialog");

  // Three PUTs (two parts, one direct), all to S3's presigned URLs, each answered with an ETag the page could read.
  expect(puts.map((p) => new URL(p.url).origin)).toEqual([s3!.endpoint, s3!.endpoint, s3!.endpoint]);
  expect(puts.every((p) => p.status === 200 && /^"[0-9a-f]{32}"$/.test(p.etag ?? ""))).toBe(true);
  expect(puts.filter((p) => /[?&]partNumber=\d+/.test(p.url)).length).toBe(2);
  expect(puts.some((p) => p.url.includes("/hangar-e2e/uploads/"))).toBe(true);

  // Hangar completed both: sizes and sha256 are the files' own. They are listed once the pipeline
  // has finished them ("processing" in the dialog comes before that).
  const listed = () =>
    call<{ data: Array<{ id: string; name: string }> }>(page, "POST", `/workspaces/${ws!.id}/assets`, {});
  await expect
    .poll(async () => (await listed()).data.map((a) => a.name).sort(), { timeout: 60_000 })
    .toEqual(["camera-roll.bin", "harbour.jpg"]);
  const list = await listed();
  for (const [name, bytes] of [
    ["camera-roll.bin", big],
    ["harbour.jpg", small],
  ] as const) {
    const row = list.data.find((a) => a.name === name);
    expect(row, name).toBeTruthy();
    const asset = await call<{ size: number; sha256: string; status: string }>(
      page,
      "GET",
      `/workspaces/${ws!.id}/assets/${row!.id}`,
    );
    expect(asset.size).toBe(bytes.length);
    expect(asset.sha256).toBe(sha(bytes));
  }

  // The grid shows the photo's thumbnail: a rendition the worker wrote to S3, served through /media.
  await expect(item(page, "harbour.jpg")).toHaveAttribute("data-status", "COMPLETED", { timeout: 60_000 });
  await dialog(page).getByRole("button", { name: "Close", exact: true }).click();
  await page.goto(`/w/${ws!.id}/b/all`);
  const thumb = card(page, "harbour.jpg").locator("img");
  await expect(thumb).toHaveJSProperty("complete", true);
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await screenshot(page, "upload-s3-grid");
  rmSync(dir, { recursive: true, force: true });
  await context.close();
});
