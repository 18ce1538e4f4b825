import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { API_PREFIX, apiRoutes } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv } from "../../test/harness.ts";
import { errorStatuses, operationIdOf } from "./openapi.ts";

/**
 * The document as integrators read it (issue 36): linted by redocly's CLI with its recommended
 * rules, as an integrator would, and checked for what a generated client needs.
 */
let env: TestEnv;
let dir: string;
type Operation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { description?: string; $ref?: string }>;
};
let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

beforeAll(async () => {
  env = await createTestEnv({}, { work: false });
  doc = (await env.app.inject({ method: "GET", url: "/api/docs/json" })).json();
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-openapi-"));
});
afterAll(async () => {
  await env.close();
  await rm(dir, { recursive: true, force: true });
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([m, op]) => ({ at: `${m} ${p}`, op })));
const opFor = (method: string, apiPath: string) =>
  doc.paths[`${API_PREFIX}${apiPath.replace(/:(\w+)/g, "{$1}")}`]?.[method.toLowerCase()];

interface Problem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: Array<{ pointer: string }>;
}

describe("the OpenAPI document", () => {
  it("passes redocly's recommended rules with no error", async () => {
    const file = path.join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(doc));
    const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
    const args = [cli, "lint", file, "--extends=recommended", "--format=json", "--max-problems=100000"];
    // Offline and quiet: no telemetry, no update check.
    const envVars = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
    const out = await promisify(execFile)(process.execPath, args, { env: envVars, maxBuffer: 64 << 20 }).catch(
      (e: { stdout?: string; stderr?: string }) => {
        // Exit code 1 when it finds errors; the JSON still says which.
        if (!e.stdout) throw new Error(`redocly failed: ${e.stderr}`);
        return { stdout: e.stdout };
      },
    );
    const report = JSON.parse(out.stdout) as { totals: { errors: number; warnings: number }; problems: Problem[] };
    const show = (p: Problem) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`;
    expect(report.problems.filter((p) => p.severity === "error").map(show)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // The warnings left are known: no license is declared (the project names none), two paths that
    // differ only by a parameter, and four operations that cannot fail with a 4xx.
    const warnings = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ""}`);
    // Single sign-on's start and callback are browser navigations answering only redirects (302).
    const redirects = ["start", "callback"].map(
      (r) => `operation-2xx-response #/paths/~1api~1v1~1auth~1sso~1${r}/get/responses`,
    );
    expect(
      warnings.filter(
        (w) => !/^(info-license|no-ambiguous-paths|operation-4xx-response) /.test(w) && !redirects.includes(w),
      ),
    ).toEqual([]);
    expect(warnings.filter((w) => w.startsWith("operation-4xx-response")).sort()).toEqual([
      "operation-4xx-response #/paths/~1api~1v1~1auth~1options/get/responses",
      "operation-4xx-response #/paths/~1api~1v1~1users~1set-csrf-token/get/responses",
      "operation-4xx-response #/paths/~1healthz/get/responses",
      "operation-4xx-response #/paths/~1readyz/get/responses",
    ]);
  });

  it("names, summarises and secures every operation, and describes every answer", () => {
    expect(doc.openapi).toBe("3.1.0");
    const ids = new Set<string>();
    for (const { at, op } of operations()) {
      expect(op.operationId, at).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(op.operationId ?? ""), `${at}: operationId ${op.operationId} twice`).toBe(false);
      ids.add(op.operationId ?? "");
      expect(op.summary, at).toBeTruthy();
      expect(op.security, at).toBeDefined();
      for (const [code, r] of Object.entries(op.responses)) {
        expect(r.$ref ?? r.description, `${at} ${code}`).toBeTruthy();
        expect(r.description, `${at} ${code}`).not.toBe("Default Response");
      }
    }
    for (const route of apiRoutes) expect(opFor(route.method, route.path)?.operationId).toBe(operationIdOf(route));
  });

  it("declares the error body and the statuses each route can fail with", () => {
    const errorsOf = (method: string, p: string) =>
      Object.keys(opFor(method, p)?.responses ?? {})
        .filter((c) => Number(c) >= 400)
        .map(Number);
    expect(doc.components.schemas).toHaveProperty("Error.properties.detail");
    expect(doc.components.responses).toHaveProperty("NotFound.content.application/json.schema.$ref");
    for (const route of apiRoutes) expect(errorsOf(route.method, route.path)).toEqual(errorStatuses(route));
    // A workspace route: signed out, forbidden (role, scope, CSRF), an outsider, bad input, a key's rate.
    expect(errorsOf("PUT", "/workspaces/:id/assets/:assetId")).toEqual([401, 403, 404, 413, 422, 429]);
    // The route's own: a version that is the asset's only one cannot go.
    expect(errorsOf("DELETE", "/workspaces/:id/assets/:assetId/versions/:versionId")).toContain(409);
  });

  it("describes the bodies a client must send: the upload start, the bytes, the forms", () => {
    const start = opFor("POST", "/workspaces/:id/assets/upload");
    expect(start?.requestBody?.content).toHaveProperty("application/json.schema.properties.size");
    expect(start?.requestBody?.content).toHaveProperty("multipart/form-data");
    const part = opFor("PUT", "/uploads/:uploadId/parts/:partNumber");
    expect(part?.requestBody?.content).toHaveProperty("application/octet-stream.schema.format", "binary");
    expect(part?.security).toEqual([{}]);
    const avatar = opFor("POST", "/users/avatar/upload");
    expect(avatar?.requestBody?.content).toHaveProperty(
      "multipart/form-data.schema.properties.avatar_file.format",
      "binary",
    );
    expect(opFor("POST", "/workspaces/:id/upload-folder")?.requestBody?.content).toHaveProperty(
      "multipart/form-data.schema.properties.files",
    );
    // No parameter named `*`: the media path has its three parts.
    expect(Object.keys(doc.paths).filter((p) => p.includes("*"))).toEqual([]);
    expect(doc.paths).toHaveProperty(["/media/{workspaceId}/{directoryId}/{file}", "get", "operationId"], "mediaGet");
  });

  it("declares the session, CSRF and bearer schemes and documents the CSRF dance", () => {
    const schemes = (doc.components.securitySchemes ?? {}) as Record<string, { type: string }>;
    expect(Object.keys(schemes).sort()).toEqual(["apiKey", "csrf", "personalToken", "session"]);
    expect(opFor("POST", "/workspaces/:id/comments")?.security).toEqual([
      { session: [], csrf: [] },
      { apiKey: [] },
      { personalToken: [] },
    ]);
    expect(opFor("GET", "/users/me")?.security).toEqual([{ session: [] }, { personalToken: [] }]);
    // Making tokens and changing the password take a session: no token may.
    expect(opFor("POST", "/users/me/tokens")?.security).toEqual([{ session: [], csrf: [] }]);
    const info = (doc as unknown as { info: { description: string } }).info;
    expect(info.description).toContain("a token fetched before sign-in is refused after it");
    expect(info.description).toContain("next_cursor");
  });
});
