import { describe, expect, it } from "vitest";
import { lazyPage } from "./lazy-page";

describe("lazyPage", () => {
  it("loads the module only when the route asks, and answers its named page as the route's Component", async () => {
    let loads = 0;
    const Page = () => null;
    const lazy = lazyPage(async () => {
      loads += 1;
      return { Page };
    }, "Page");
    expect(loads).toBe(0);
    await expect(lazy()).resolves.toEqual({ Component: Page });
    expect(loads).toBe(1);
  });
});
