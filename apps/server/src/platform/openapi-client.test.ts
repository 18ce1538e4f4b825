import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, signedInUser, type TestEnv } from "../../test/harness.ts";

/**
 * What an integrator does with the document alone (issue 36): generate a client with
 * openapi-typescript from a real server's `/api/docs/json`, compile the README's example
 * (docs/examples/upload-and-comment.ts) against it with tsc, and run it against the server with an
 * API key: start an upload, PUT the bytes, complete it, wait for processing, comment.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const example = path.join(repo, "docs/examples/upload-and-comment.ts");
/** The example's face (imported by path at run time; tsc checks it against the generated client). */
interface Example {
  uploadAndComment(o: {
    baseUrl: string;
    apiKey: string;
    workspaceId: string;
    file: { name: string; type: string; bytes: Uint8Array };
    comment: string;
    pollMs?: number;
  }): Promise<{ assetId: string; commentId: string }>;
}
let env: TestEnv;
let dir: string;
let baseUrl: string;

beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" });
  await env.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(env.app.server.address() as AddressInfo).port}`;
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-client-"));
});
afterAll(async () => {
  await env.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a client generated from the OpenAPI document", () => {
  it("compiles the example with real types, and a wrong body does not compile", async () => {
    const doc = await (await fetch(`${baseUrl}/api/docs/json`)).json();
    const types = astToString(await openapiTS(doc));
    expect(types).toContain('"/api/v1/workspaces/{id}/assets/upload": {');
    await writeFile(path.join(dir, "hangar-api.d.ts"), types);
    await copyFile(example, path.join(dir, "upload-and-comment.ts"));
    // What the types must refuse: a size that is not a number, a comment without its asset.
    await writeFile(
      path.join(dir, "wrong.ts"),
      `import createClient from "openapi-fetch";
import type { paths } from "./hangar-api";
const api = createClient<paths>({ baseUrl: "http://localhost" });
export const a = api.POST("/api/v1/workspaces/{id}/assets/upload", {
  params: { path: { id: "x" } },
  body: { name: "a.png", size: "12" },
});
export const b = api.POST("/api/v1/workspaces/{id}/comments", {
  params: { path: { id: "x" } },
  body: { content_type: "asset", text: "no asset" },
});
`,
    );
    const tsconfig = {
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        lib: ["ES2022", "DOM"],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        paths: { "openapi-fetch": [path.join(repo, "node_modules/openapi-fetch")] },
      },
      files: ["upload-and-comment.ts", "wrong.ts"],
    };
    await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    const tsc = path.join(repo, "node_modules/typescript/bin/tsc");
    const out = await promisify(execFile)(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir }).then(
      () => "",
      (e: { stdout?: string }) => e.stdout ?? "",
    );
    const errors = out.split("\n").filter((l) => /error TS\d+/.test(l));
    // The example compiles; each wrong call is refused (and nothing else).
    expect(errors.filter((l) => !l.startsWith("wrong.ts("))).toEqual([]);
    expect(errors.filter((l) => l.startsWith("wrong.ts(6,")).length, out).toBeGreaterThan(0);
    expect(errors.filter((l) => l.startsWith("wrong.ts(10,")).length, out).toBeGreaterThan(0);
  }, 120_000);

  it("uploads a file and comments on it with an API key", async () => {
    const admin = await signedInUser(env);
    const ws = (await admin.client.post("/workspaces", { name: "Integrations" })).json();
    const key = await admin.client.post(`/workspaces/${ws.id}/api-keys`, {
      name: "sync",
      scopes: ["assets:read", "assets:write", "comments:write"],
    });
    expect(key.statusCode, key.body).toBe(201);
    const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    // Imported by its path: it names the generated types, which exist only in the first test's folder.
    const { uploadAndComment } = (await import(example)) as Example;
    const { assetId, commentId } = await uploadAndComment({
      baseUrl,
      apiKey: key.json().secret,
      workspaceId: ws.id,
      file: { name: "blue.png", type: "image/png", bytes: new Uint8Array(bytes) },
      comment: "Looks right",
      pollMs: 100,
    });
    const asset = (await admin.client.get(`/workspaces/${ws.id}/assets/${assetId}`)).json();
    expect(asset).toMatchObject({ name: "blue.png", status: "COMPLETED", size: bytes.length, width: 64 });
    const comments = (
      await admin.client.get(`/workspaces/${ws.id}/comments?content_type=asset&object_id=${assetId}`)
    ).json();
    const found = comments.results.find((c: { id: string }) => c.id === commentId);
    // Written by the key, authored by its creator.
    expect(found).toMatchObject({ text: "Looks right", author: { id: admin.user.id } });
  }, 60_000);
});
