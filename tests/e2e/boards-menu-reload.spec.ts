import { type Browser, expect, type Page, test } from "@playwright/test";
import { screenshot } from "./screenshots.ts";
import { api, baseUrl, signUpWithWorkspace } from "./support.ts";

/**
 * Right after a load the boards panel shows its first-paint tree and swaps in the full one (on hover,
 * focus, or when idle). One press on a row's "Board actions" opens its menu (and one on "Create
 * Sub-Board", a Ctrl-click, Enter or Space on the focused button do theirs), whenever the swap lands:
 * before, during or after the press. The CPU is slowed down and the main thread kept busy (as on a
 * busy CI machine) to widen the race; each repetition (`--repeat-each`) waits a little longer before
 * its press. Raw mouse presses, not locator.click(): that one re-aims when its target is replaced.
 * The page.waitForTimeout calls below are that stimulus's timing (how long after the pointing or the
 * focus the press comes, how long it is held), the subject of these tests: none waits for a result.
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

/**
 * Keeps the page's main thread busy for `ms` with back-to-back tasks of 20 ms, as a page still loading
 * on a busy machine: input events go before queued tasks, so a click can come between a state update
 * and its render.
 */
const busy = (page: Page, ms: number) =>
  page.evaluate((ms) => {
    const end = performance.now() + ms;
    const spin = () => {
      const t = performance.now();
      while (performance.now() - t < 20) {
        // busy
      }
      if (performance.now() < end) setTimeout(spin, 0);
    };
    setTimeout(spin, 0);
  }, ms);

const row = (page: Page) => page.getByTestId("boards-panel").getByRole("treeitem", { name: "Bravo", exact: true });
const menuItem = (page: Page) => page.getByRole("menuitem", { name: "Request files…" });

/**
 * The full tree's rows: react-dnd marks each row it connects `draggable`; the first-paint tree has
 * no such attribute. The menu's fate is known once this one is on screen.
 */
const fullTreeRow = (page: Page) => row(page).locator("[draggable]");

/** The menu shows, and is still open once the full tree has swapped in (nothing closed it as the trees swapped). */
async function menuStaysOpen(page: Page) {
  await expect(menuItem(page)).toBeVisible({ timeout: 15_000 });
  await expect(fullTreeRow(page)).not.toHaveCount(0, { timeout: 15_000 });
  await expect(menuItem(page)).toBeVisible();
  await expect(page.getByRole("menu")).toHaveCount(1);
}

test("one click on a board's actions right after a reload opens its menu", async ({ browser }, info) => {
  const page = await freshPanel(browser);
  await expect(row(page)).toBeVisible();
  const button = row(page).getByRole("button", { name: "Board actions" });
  // The hover starts fetching the full tree; the click comes 0–140 ms later, around its arrival.
  await busy(page, 3000);
  await row(page).hover();
  await page.waitForTimeout((info.repeatEachIndex % 8) * 20); // stimulus timing: when the click comes
  await button.click();
  await menuStaysOpen(page);
  await page.context().close();
});

/** What one press on the first-paint tree asks for, whenever the full tree swaps in. */
const presses = [
  {
    what: "a board's actions opens its menu",
    target: (page: Page) => row(page).getByRole("button", { name: "Board actions" }),
    ctrl: false,
    done: menuStaysOpen,
  },
  {
    what: "Create Sub-Board shows the new board's row",
    target: (page: Page) => row(page).getByRole("button", { name: "Create Sub-Board" }),
    ctrl: false,
    done: (page: Page) =>
      expect(page.getByRole("textbox", { name: "New board name" })).toBeVisible({ timeout: 15_000 }),
  },
  {
    what: "a Ctrl-click on a row selects the board",
    target: (page: Page) => row(page).locator("span[title]"),
    ctrl: true,
    done: (page: Page) => expect(row(page)).toHaveAttribute("aria-selected", "true", { timeout: 15_000 }),
  },
];

for (const press of presses) {
  test(`a press held while the full tree arrives: ${press.what}`, async ({ browser }, info) => {
    const page = await freshPanel(browser);
    await expect(row(page)).toBeVisible();
    // (The rows may be swapping meanwhile: measured again until it holds.)
    const measure = () => press.target(page).boundingBox();
    await expect.poll(measure).not.toBeNull();
    const box = (await measure()) ?? (await measure())!;
    await busy(page, 3000);
    // Pointing starts fetching the full tree; the press comes 40–110 ms later (about when it arrives,
    // here) and is held 0–80 ms.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(40 + (info.repeatEachIndex % 8) * 10); // stimulus timing: when the press comes
    if (press.ctrl) await page.keyboard.down("Control");
    await page.mouse.down();
    await page.waitForTimeout((info.repeatEachIndex % 3) * 40); // stimulus timing: how long it is held
    await page.mouse.up();
    if (press.ctrl) await page.keyboard.up("Control");
    await press.done(page);
    await page.context().close();
  });
}

for (const key of ["Enter", "Space"] as const) {
  test(`${key} on a focused board's actions right after a reload opens its menu`, async ({ browser }, info) => {
    const page = await freshPanel(browser);
    await expect(row(page)).toBeVisible();
    // Focus reaches the panel (it starts fetching the full tree); the key comes 0–350 ms later
    // (mostly after the full tree came) and is held 0–100 ms.
    await row(page).getByRole("button", { name: "Board actions" }).focus();
    await page.waitForTimeout((info.repeatEachIndex % 8) * 50); // stimulus timing: when the key comes
    await page.keyboard.down(key);
    await page.waitForTimeout((info.repeatEachIndex % 3) * 50); // stimulus timing: how long it is held
    await page.keyboard.up(key);
    await menuStaysOpen(page);
    if (info.repeatEachIndex === 0) {
      await screenshot(page, `boards-menu-reload-${key}`);
    }
    // The menu has the keyboard: arrows move through its items; Escape gives the focus back.
    await page.keyboard.press("ArrowDown");
    await expect(page.locator('[role="menuitem"]:focus')).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toHaveCount(0);
    await expect(row(page).getByRole("button", { name: "Board actions" })).toBeFocused();
    await page.context().close();
  });
}
