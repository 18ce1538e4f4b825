import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The web app's layers (issue 28), each importing only the ones below it:
 *
 *   app (the router, the shell, main.tsx) → features → entities → ui → lib
 *
 * A feature (features/<name>) or an entity (entities/<name>) is a slice: others reach it only through
 * its index.ts, and no two slices import each other, directly or through a chain of slices. Features
 * that need each other meet in a page that composes them, in the router or through entities. Product
 * code only: test files and the test helpers (test/) may import what they exercise.
 */
const SRC = import.meta.dirname;
const LAYERS = ["lib", "ui", "entities", "features", "app"] as const;

/** Path (relative to src, "/"-separated) → source text; non-script files map to "". */
export type SourceTree = Map<string, string>;

export interface ArrowReport {
  /** An import from a layer into one above it. */
  upward: string[];
  /** An import into a slice from outside it that is not the slice's index.ts. */
  deep: string[];
  /** Slices that import each other: one chain for each circle ("a → b → a"), and its members when more. */
  circles: string[];
  /** Relative imports that name no file: the rules cannot see where they point. */
  unresolved: string[];
}

const isScript = (file: string) => /\.tsx?$/.test(file);
const isProduct = (file: string) => isScript(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith("test/");

function layerOf(file: string): number | null {
  if (file === "main.tsx") return LAYERS.indexOf("app");
  const at = LAYERS.indexOf(file.split("/")[0] as (typeof LAYERS)[number]);
  return at < 0 ? null : at;
}

/** "features/boards" for any file under it; null outside features/ and entities/. */
export function sliceOf(file: string): string | null {
  const [top, name, ...rest] = file.split("/");
  return (top === "features" || top === "entities") && rest.length > 0 ? `${top}/${name}` : null;
}

const isIndexOf = (slice: string, file: string) => file === `${slice}/index.ts` || file === `${slice}/index.tsx`;

/** Relative specifiers of every import, re-export, dynamic import() and import type in a source text. */
export function importsOf(source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith("./") || name.startsWith("../"));
}

function resolve(tree: SourceTree, from: string, spec: string): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (tree.has(candidate)) return candidate;
  return null;
}

/** Strongly connected groups of more than one node (Tarjan). */
function circlesIn(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** One chain through a circle, from its first member back to it (breadth first, so a short one). */
function chainThrough(graph: Map<string, Set<string>>, group: string[]): string {
  const members = new Set(group);
  const start = group[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (!members.has(next) || previous.has(next)) continue;
      previous.set(next, node);
      if (next === start) queue.length = 0;
      else queue.push(next);
    }
  }
  const chain: string[] = [];
  for (let at = previous.get(start)!; at !== start; at = previous.get(at)!) chain.unshift(at);
  return [start, ...chain, start].join(" → ");
}

/** The arrows of a tree checked against the layers and the slices' rules. */
export function checkArrows(tree: SourceTree): ArrowReport {
  const report: ArrowReport = { upward: [], deep: [], circles: [], unresolved: [] };
  const slices = new Map<string, Set<string>>();
  for (const [file, source] of tree) {
    if (!isProduct(file)) continue;
    const fromLayer = layerOf(file);
    const fromSlice = sliceOf(file);
    for (const spec of importsOf(source)) {
      const target = resolve(tree, file, spec);
      const arrow = `${file} → ${spec}`;
      if (!target) {
        report.unresolved.push(arrow);
        continue;
      }
      const toLayer = layerOf(target);
      if (fromLayer !== null && toLayer !== null && toLayer > fromLayer) report.upward.push(arrow);
      const toSlice = sliceOf(target);
      if (!toSlice || toSlice === fromSlice) continue;
      if (!isIndexOf(toSlice, target)) report.deep.push(arrow);
      if (fromSlice) {
        if (!slices.has(fromSlice)) slices.set(fromSlice, new Set());
        slices.get(fromSlice)!.add(toSlice);
      }
    }
  }
  report.circles = circlesIn(slices).map((group) =>
    group.length > 2
      ? `${chainThrough(slices, group)} (a circle through ${group.join(", ")})`
      : chainThrough(slices, group),
  );
  return report;
}

function readTree(root: string): SourceTree {
  const tree: SourceTree = new Map();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const file = path.relative(root, full).split(path.sep).join("/");
    tree.set(file, isScript(file) ? readFileSync(full, "utf8") : "");
  }
  return tree;
}

describe("web import arrows", () => {
  const tree = readTree(SRC);
  const report = checkArrows(tree);

  it("reads the whole app (so the checks below are about it)", () => {
    const features = new Set([...tree.keys()].map(sliceOf).filter((s) => s?.startsWith("features/")));
    expect(features.size).toBeGreaterThanOrEqual(15);
    expect([...tree.keys()].filter(isProduct).length).toBeGreaterThan(200);
  });

  it("every relative import names a file (the rules see every arrow)", () => {
    expect(report.unresolved).toEqual([]);
  });

  it("no circle between features, nor between entities, directly or through a chain", () => {
    expect(report.circles).toEqual([]);
  });

  it("a feature or an entity is reached from outside only through its index.ts", () => {
    expect(report.deep).toEqual([]);
  });

  it("imports go downward only: app → features → entities → ui → lib", () => {
    expect(report.upward).toEqual([]);
  });

  it("catches each kind on a constructed tree (so the checks above can fail)", () => {
    const example: SourceTree = new Map(
      Object.entries({
        "features/a/index.ts": 'export { A } from "./a";',
        "features/a/a.tsx": 'import { B } from "../b";\nexport const A = B;',
        "features/b/index.ts": 'export { B } from "./b";',
        "features/b/b.ts": 'export const B = 1;\nexport const load = () => import("../c/c");',
        "features/c/index.ts": 'export * from "./c";',
        "features/c/c.ts": 'import type { A } from "../a";\nexport type C = A;',
        "features/d/index.ts": 'import { E } from "../../entities/e";\nimport "./d.module.css";\nexport const D = E;',
        "features/d/d.module.css": "",
        "features/d/d.test.ts": 'import { B } from "../b/b";',
        "entities/e/index.ts": 'import { A } from "../../features/a";\nexport const E = A;',
        "lib/l.ts": 'import { U } from "../ui/u";\nexport const L = U;',
        "ui/u.tsx": 'import { L } from "../lib/l";\nexport const U = 2;',
        "app/router.tsx": 'import { A } from "../features/a/a";\nimport { Z } from "./missing";',
        "main.tsx": 'import "./app/router";',
      }),
    );
    expect(checkArrows(example)).toEqual({
      upward: ["entities/e/index.ts → ../../features/a", "lib/l.ts → ../ui/u"],
      deep: ["features/b/b.ts → ../c/c", "app/router.tsx → ../features/a/a"],
      circles: [
        "features/a → features/b → features/c → features/a (a circle through features/a, features/b, features/c)",
      ],
      unresolved: ["app/router.tsx → ./missing"],
    });
  });
});
