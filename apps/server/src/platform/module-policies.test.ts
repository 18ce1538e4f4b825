import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every module that exposes routes declares its actions in a `policy.ts` (docs/architecture.md §3, issue 28),
 * which its services pass to `access.require`. A module without routes (processing: jobs only) needs none.
 */
const MODULES = path.resolve(import.meta.dirname, "..", "modules");

/** Modules that expose routes and declare no policy. */
export function withoutPolicy(has: (file: string) => boolean, modules: string[]): string[] {
  return modules.filter((m) => has(path.join(MODULES, m, "routes.ts")) && !has(path.join(MODULES, m, "policy.ts")));
}

describe("module policies", () => {
  it("every module with routes has a policy.ts", async () => {
    const modules = (await readdir(MODULES, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    const missing = withoutPolicy(existsSync, modules);
    expect(missing).toEqual([]);
  });

  it("names a module with routes and no policy (so the check can fail)", () => {
    const files = new Set(
      ["a/routes.ts", "a/policy.ts", "b/routes.ts", "c/pipeline.ts"].map((f) => path.join(MODULES, f)),
    );
    expect(withoutPolicy((f) => files.has(f), ["a", "b", "c"])).toEqual(["b"]);
  });
});
