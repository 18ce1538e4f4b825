import { expect, test } from "@playwright/test";
import { api, baseUrl, signUpWithWorkspace } from "./support.ts";

test("debug", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 820 });
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "dbg" });
  for (const name of ["Clients", "Drafts", "Finals", "Stock"]) {
    await api(page, "POST", `/workspaces/${workspaceId}/boards`, { name, parent_id: null });
  }
  await page.goto(`${baseUrl()}/w/${workspaceId}`);
  const row = (n: string) => page.getByRole("treeitem", { name: n, exact: true });
  await expect(row("Stock")).toBeVisible();
  await row("Drafts").click({ modifiers: ["ControlOrMeta"] });
  await row("Finals").click({ modifiers: ["ControlOrMeta"] });
  const info = await page.evaluate(() =>
    [...document.querySelectorAll('[role="treeitem"]')].map((el) => ({
      name: el.getAttribute("aria-label"),
      focus: el.matches(":focus"),
      focusWithin: el.matches(":focus-within"),
      hover: el.matches(":hover"),
      opacity: getComputedStyle(el.querySelector('[class*="actions"]') ?? el).opacity,
      active: document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.tagName,
    })),
  );
  console.log(JSON.stringify(info, null, 1));
});
