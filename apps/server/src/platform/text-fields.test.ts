import { randomUUID } from "node:crypto";
import { apiRoutes } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestEnv, type TestEnv, workspaceWith } from "../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

type Schema = {
  $ref?: string;
  enum?: unknown[];
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
/**
 * Every string field of a schema as a path of keys (array items as index 0), found by walking the
 * JSON Schema that zod generates from the contract's schema ($defs aside: ours inline every part).
 */
function stringPaths(schema: Schema | undefined, components: Record<string, Schema>, depth = 0): string[][] {
  if (!schema || depth > 8) return [];
  if (schema.$ref) return stringPaths(components[schema.$ref.split("/").pop() ?? ""], components, depth + 1);
  const out: string[][] = [];
  const types = [schema.type].flat();
  if (types.includes("string")) out.push([]);
  for (const sub of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    out.push(...stringPaths(sub, components, depth + 1));
  for (const [key, sub] of Object.entries(schema.properties ?? {}))
    for (const p of stringPaths(sub, components, depth + 1)) out.push([key, ...p]);
  if (schema.items) for (const p of stringPaths(schema.items, components, depth + 1)) out.push(["0", ...p]);
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(p.join(".")) && seen.add(p.join(".")));
}

function bodyWith(path: string[], value: string): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return head === "0" ? [bodyWith(rest, value)] : { [head!]: bodyWith(rest, value) };
}

const NUL = "a\u0000b";

describe("control characters in every string field of the contract (issue 12 item 6)", () => {
  it("answers 422 naming the field, never 500, for a NUL in any body or query string of any route", async () => {
    const { ws, admin } = await workspaceWith(env);
    // The contract's own list of routes, each schema turned into JSON Schema to find its string fields.
    const json = (schema: z.ZodType | undefined): Schema | undefined =>
      schema ? (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Schema) : undefined;
    const cases: Array<{ method: string; url: string; field: string; body?: unknown }> = [];
    for (const route of apiRoutes) {
      const params = json(route.params)?.properties ?? {};
      const numeric = new Set(
        Object.entries(params)
          .filter(([, p]) => /integer|number/.test(String(p.type)))
          .map(([name]) => name),
      );
      // A path parameter that is one of a few words (a share link's content type) takes the first.
      const url = `/api/v1${route.path}`.replace(/:(\w+)/g, (_m, name: string) =>
        name === "id"
          ? ws.id
          : numeric.has(name)
            ? "1"
            : params[name]?.enum
              ? String(params[name]!.enum![0])
              : randomUUID(),
      );
      if (route.bodyKind === "json" || route.bodyKind === "json-or-multipart") {
        for (const p of stringPaths(json(route.body), {}))
          cases.push({ method: route.method, url, field: p.join(".") || "body", body: bodyWith(p, NUL) });
      }
      for (const [name, q] of Object.entries(json(route.query)?.properties ?? {})) {
        if (stringPaths(q, {}).length > 0)
          cases.push({ method: route.method, url: `${url}?${name}=a%00b`, field: name });
      }
    }
    // Generated, not listed by hand: the contract's routes have dozens of string fields.
    expect(cases.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const c of cases) {
      const res =
        c.body === undefined
          ? await admin.client.request(c.method, c.url)
          : await admin.client.request(c.method, c.url, c.body as Record<string, unknown>);
      const fields = (res.json().errors ?? []).map((e: { field: string }) => e.field);
      if (res.statusCode !== 422 || !fields.includes(c.field))
        wrong.push(`${c.method} ${c.url} ${c.field}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("refuses CR/LF in a declared content type, keeps line breaks in a description, folds them in names, strips bidi overrides", async () => {
    const { ws, admin } = await workspaceWith(env);
    const init = await admin.client.post(`/workspaces/${ws.id}/assets/upload`, {
      name: "photo.jpg",
      size: 10,
      content_type: "image/jpeg\r\nX-Injected: 1",
    });
    expect(init.statusCode).toBe(422);
    expect(init.json().errors.map((e: { field: string }) => e.field)).toContain("content_type");
    const board = await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "invoice\u202efdp.exe" });
    expect(board.statusCode).toBeLessThan(300);
    expect(board.json().name ?? board.json().data?.name).toBe("invoicefdp.exe");
    // A line break pasted into a name becomes a space; other control characters are refused.
    const pasted = await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Shoot\r\n2026\tfinal" });
    expect(pasted.json().name ?? pasted.json().data?.name).toBe("Shoot 2026 final");
    expect((await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "a\u0007b" })).statusCode).toBe(422);
    const asset = await admin.client.post(`/workspaces/${ws.id}/assets/upload`, { name: "a.txt", size: 3 });
    const id = asset.json().asset_id;
    const described = await admin.client.request("PUT", `/workspaces/${ws.id}/assets/${id}`, {
      description: "line one\nline\ttwo",
    });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json().description).toBe("line one\nline\ttwo");
  });
});
