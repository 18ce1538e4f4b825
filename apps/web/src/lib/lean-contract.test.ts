import { parseAst } from "vite";
import { describe, expect, it } from "vitest";
import { leanContract } from "../../build/lean-contract";

const CONTRACT_FILE = "/repo/packages/contract/src/routes/things.ts";
const source = `import { z } from "zod";
export const Thing = z.object({ name: z.string().trim().min(1) });
const Params = z.object({ id: z.uuid() });
export const thingsApi = {
  get: defineRoute({ method: "GET", path: "/things/:id", tag: "things", params: Params, response: { 200: Thing } }),
  make: defineRoute({ method: "POST", path: "/things", body: Thing, tag: "things" }),
};
export const LIMIT = Math.max(1, 2);
export function label(name) { list.push(name); return z.string().parse(name); }
`;

function transform(code: string, id: string) {
  const hook = leanContract().transform as (code: string, id: string) => { code: string } | null;
  return hook(code, id);
}

describe("leanContract (production web builds)", () => {
  const out = transform(source, CONTRACT_FILE)?.code ?? "";

  it("takes the schema fields out of route objects and keeps the rest", () => {
    expect(out).not.toMatch(/params:|response:|body:/);
    expect(out).toContain('method: "GET", path: "/things/:id", tag: "things"');
    expect(out).toContain('method: "POST", path: "/things", tag: "things"');
  });

  it("marks every module-level call pure, nested ones too, and leaves function bodies alone", () => {
    expect(out).toContain("(/* @__PURE__ */ (/* @__PURE__ */ (/* @__PURE__ */ z.string()).trim()).min(1))");
    expect(out).toContain("(/* @__PURE__ */ Math.max(1, 2))");
    expect(out).toContain("list.push(name); return z.string().parse(name);");
    expect(() => parseAst(out)).not.toThrow();
  });

  it("touches only the contract's sources", () => {
    expect(transform(source, "/repo/apps/web/src/lib/api-client.ts")).toBeNull();
    expect(transform(source, "/repo/packages/contract/src/file-names.test.ts")).toBeNull();
  });
});
