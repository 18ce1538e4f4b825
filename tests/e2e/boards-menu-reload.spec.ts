import { type Browser, expect, type Page, test } from "@playwright/test";
import { api, baseUrl, signUpWithWorkspace } from "./support.ts";

/**
 * Right after a load the boards panel shows its first-paint tree and swaps in the full one (on hover,
 * focus, or when idle). One press on a row's "Board actions" opens its menu, whenever the swap lands:
 * before, during or after the click. The CPU is slowed down (as a busy CI machine is) to widen the race;
 * each repetition (`--repeat-each`) waits a little longer before its click.
 */
const THROTTLE = Number(process.env.E2E_CPU_THROTTLE ?? 4);

let state: Awaited<ReturnType<Awaited<ReturnType<Browser["newContext"]>>["storageState"]>>;
let workspaceId = "";

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  ({ workspaceId } = await signUpWithWorkspace(page, { prefix: "menu" }));
  for (const name of ["Alpha", "Bravo", "Charlie"]) {
    await api(page, "POST", `/workspaces/${workspaceId}/boards`, { name });
  }
  state = await context.storageState();
  await context.close();
});

/** A fresh page on the workspace, its CPU slowed, the first-paint tree on screen. */
async function freshPanel(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl(), storageState: state });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await page.goto(`/w/${workspaceId}/b/all`);
  await expect(page.getByTestId("boards-panel").getByRole("treeitem", { name: "Bravo", exact: true })).toBeVisible();
  await page.reload();
  if (THROTTLE > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: THROTTLE });
  return page;
}

const row = (page: Page) => page.getByTestId("boards-panel").getByRole("treeitem", { name: "Bravo", exact: true });
const menuItem = (page: Page) => page.getByRole("menuitem", { name: "Request files…" });

/** The menu shows, and is still open a moment later (nothing closed it as the trees swapped). */
async function menuStaysOpen(page: Page) {
  await expect(menuItem(page)).toBeVisible({ timeout: 15_000 });
  await page.waitForTimeout(400);
  await expect(menuItem(page)).toBeVisible();
  await expect(page.getByRole("menu")).toHaveCount(1);
}

test("one click on a board's actions right after a reload opens its menu", async ({ browser }, info) => {
  const page = await freshPanel(browser);
  await expect(row(page)).toBeVisible();
  const button = row(page).getByRole("button", { name: "Board actions" });
  // The hover starts fetching the full tree; the click comes 0–140 ms later, around its arrival.
  await row(page).hover();
  await page.waitForTimeout((info.repeatEachIndex % 8) * 20);
  await button.click();
  await menuStaysOpen(page);
  await page.context().close();
});

test("a press held while the full tree arrives still opens the menu", async ({ browser }, info) => {
  const page = await freshPanel(browser);
  await expect(row(page)).toBeVisible();
  const box = (await row(page).getByRole("button", { name: "Board actions" }).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForTimeout((info.repeatEachIndex % 8) * 15);
  await page.mouse.down();
  await page.waitForTimeout((info.repeatEachIndex % 3) * 40);
  await page.mouse.up();
  await menuStaysOpen(page);
  await page.context().close();
});

for (const key of ["Enter", "Space"] as const) {
  test(`${key} on a focused board's actions right after a reload opens its menu`, async ({ browser }, info) => {
    const page = await freshPanel(browser);
    await expect(row(page)).toBeVisible();
    // Focus reaches the panel (it starts fetching the full tree); the key comes 0–280 ms later.
    await row(page).getByRole("button", { name: "Board actions" }).focus();
    await page.waitForTimeout((info.repeatEachIndex % 8) * 40);
    await page.keyboard.press(key);
    await menuStaysOpen(page);
    // The menu has the keyboard: arrows move through its items.
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menu")).toBeVisible();
    await page.context().close();
  });
}
