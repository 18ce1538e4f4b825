import { describe, expect, it } from "vitest";
import { loadOnce } from "./load-once";

describe("loadOnce", () => {
  it("fetches once and shares the answer", async () => {
    let calls = 0;
    const mod = loadOnce(async () => ++calls);
    expect(mod.get()).toBeNull();
    const [a, b] = await Promise.all([mod.load(), mod.load()]);
    expect([a, b, mod.get(), calls]).toEqual([1, 1, 1, 1]);
  });

  it("tries a failed fetch again, and starts afresh after three failures", async () => {
    let calls = 0;
    const flaky = loadOnce(async () => {
      calls++;
      if (calls < 3) throw new Error("dropped");
      return "menu";
    }, 1);
    expect(await flaky.load()).toBe("menu");
    expect(calls).toBe(3);

    let down = true;
    let tries = 0;
    const dead = loadOnce(async () => {
      tries++;
      if (down) throw new Error("offline");
      return 7;
    }, 1);
    await expect(dead.load()).rejects.toThrow("offline");
    expect(tries).toBe(3);
    down = false;
    expect(await dead.load()).toBe(7);
  });
});
