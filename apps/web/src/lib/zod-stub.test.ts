import { describe, expect, it } from "vitest";
import { z } from "./zod-stub";

// The stub is typed unknown (it is never type-checked against zod's API): call it as the contract does.
const zz = z as unknown as Record<string, (...args: unknown[]) => Record<string, (...args: unknown[]) => unknown>>;

describe("the zod stub of production web builds", () => {
  it("answers every builder chain, so the contract's module-level schemas cost nothing", () => {
    const schema = zz.object?.({ a: 1 }).extend?.({});
    expect(schema).toBe(z);
    expect(zz.string?.().optional?.()).toBe(z);
    expect(zz.iso).toBe(z);
  });

  it("is neither a thenable nor a primitive", async () => {
    expect((z as { then?: unknown }).then).toBeUndefined();
    expect(await Promise.resolve(z)).toBe(z);
  });

  it("refuses to check a value, loudly", () => {
    const schema = zz.object?.({}) as unknown as Record<string, (v: unknown) => unknown>;
    expect(() => schema.parse?.({})).toThrow(/zod is not bundled in production/);
    expect(() => schema.safeParse?.({})).toThrow(/zod is not bundled in production/);
  });
});
