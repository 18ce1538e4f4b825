import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The intended "never" arrows between the server's folders (docs/architecture.md §2, issue 11): media/ holds
 * pure steps (bytes in, facts and renditions out), so it never reaches into a feature or the
 * database; storage/ is below media/ and never imports it (shared worker-thread tools live in
 * platform/worker-threads.ts).
 */
const SRC = path.resolve(import.meta.dirname, "..");
const RULES: Array<{ from: string; never: string[] }> = [
  { from: "media", never: ["modules", "db"] },
  { from: "storage", never: ["media"] },
];

/** Relative specifiers of static imports, re-exports and dynamic imports in a source text. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm))
    found.push(m[1]!);
  return found;
}

/** The imports of `file` (under SRC) that land in one of the forbidden top-level folders. */
export function violations(file: string, source: string, never: string[]): string[] {
  return importsOf(source).filter((spec) => {
    const target = path.relative(SRC, path.resolve(path.dirname(file), spec));
    return never.includes(target.split(path.sep)[0]!);
  });
}

/**
 * A module imports another only through that module's `index.ts` (docs/architecture.md §2): its repo, policy
 * and helpers stay its own. The imports of `file` (under SRC) that reach into another module's files.
 */
export function deepImports(file: string, source: string): string[] {
  const [top, own] = path.relative(SRC, file).split(path.sep);
  if (top !== "modules") return [];
  return importsOf(source).filter((spec) => {
    const [root, module, ...rest] = path.relative(SRC, path.resolve(path.dirname(file), spec)).split(path.sep);
    return root === "modules" && module !== own && rest.join("/") !== "index.ts";
  });
}

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name.endsWith(".ts")) out.push(path.join(e.parentPath, e.name));
  return out;
}

describe("import arrows", () => {
  for (const rule of RULES) {
    it(`nothing in ${rule.from}/ imports ${rule.never.join("/ or ")}/`, async () => {
      const bad: string[] = [];
      for (const file of await sources(path.join(SRC, rule.from))) {
        const hits = violations(file, await readFile(file, "utf8"), rule.never);
        bad.push(...hits.map((h) => `${path.relative(SRC, file)} → ${h}`));
      }
      expect(bad).toEqual([]);
    });
  }

  it("no module reaches into another module past its index.ts", async () => {
    const bad: string[] = [];
    for (const file of await sources(path.join(SRC, "modules"))) {
      const hits = deepImports(file, await readFile(file, "utf8"));
      bad.push(...hits.map((h) => `${path.relative(SRC, file).split(path.sep).join("/")} → ${h}`));
    }
    expect(bad).toEqual([]);
  });

  it("catches a deep import between modules in any of its forms, and lets index.ts, its own files and platform/ through", () => {
    const file = path.join(SRC, "modules", "media", "routes.ts");
    const text = [
      'import { ASSET } from "../assets/policy.ts";',
      'import type { AssetsService } from "../assets/index.ts";',
      'import { MEDIA } from "./policy.ts";',
      'import { notFound } from "../../platform/errors.ts";',
      'export { boardsRepo } from "../boards/repo.ts";',
      'const v = await import("../shares/visitor.ts");',
      'import "../fields/ai/evaluate.ts";',
      'import { x } from "../../modules/users/serialize.ts";',
      'import { y } from "../../modules/users/index.ts";',
    ].join("\n");
    expect(deepImports(file, text)).toEqual([
      "../assets/policy.ts",
      "../boards/repo.ts",
      "../shares/visitor.ts",
      "../fields/ai/evaluate.ts",
      "../../modules/users/serialize.ts",
    ]);
    // A module's own files, however deep, are its own; outside modules/ the rule does not apply.
    expect(deepImports(path.join(SRC, "modules", "fields", "ai", "run.ts"), 'import { a } from "../repo.ts";')).toEqual(
      [],
    );
    expect(deepImports(path.join(SRC, "app.ts"), 'import { r } from "./modules/live/routes.ts";')).toEqual([]);
  });

  it("catches a forbidden import in any of its forms (so the checks above can fail)", () => {
    const file = path.join(SRC, "media", "step.ts");
    const text = [
      'import type { AssetLifecycle } from "../modules/assets/index.ts";',
      'import "../db/db.ts";',
      'export { x } from "../db/types.ts";',
      'const m = await import("../modules/processing/index.ts");',
      'import { sniffFile } from "./sniff.ts";',
      'import { createSerialWorker } from "../platform/worker-threads.ts";',
    ].join("\n");
    expect(violations(file, text, ["modules", "db"])).toEqual([
      "../modules/assets/index.ts",
      "../db/db.ts",
      "../db/types.ts",
      "../modules/processing/index.ts",
    ]);
    expect(
      violations(path.join(SRC, "storage", "s.ts"), 'import { MediaError } from "../media/limits.ts";', ["media"]),
    ).toEqual(["../media/limits.ts"]);
  });
});
