import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 35: `npm install` warned EBADENGINE on Node 20 (dependencies want Node ≥ 22) while the README
 * said 20.19+ worked. The README and `engines` say the same: Node 22 or 24, both LTS.
 */
const root = path.resolve(import.meta.dirname, "../../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("the Node versions Hangar asks for", () => {
  it("engines admit Node 22 (from 22.12) and 24, never 20", () => {
    const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;
    const lowest = engines.split("||").map((range) => {
      const [major, minor] = range
        .trim()
        .replace(/^[\^>=~]+/, "")
        .split(".")
        .map(Number);
      return { major, minor };
    });
    expect(lowest.map((v) => v.major)).toEqual([22, 24]);
    expect(lowest[0]!.minor).toBeGreaterThanOrEqual(12);
    expect(engines).not.toMatch(/\b20\./);
  });

  it("the README's quick start says Node 22 or 24 and nothing about 20", () => {
    const quickStart = read("README.md").split("## Quick start")[1]!.split("\n## ")[0]!;
    expect(quickStart).toMatch(/Node 22 or 24 \(both LTS\)/);
    expect(quickStart).not.toMatch(/\b20\.\d/);
  });
});
