import { expect as baseExpect, type Locator, type Page, test } from "@playwright/test";
import { cardName } from "./asset-grid-helpers.ts";
import { createBoard, jpeg, newOwner, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";

/**
 * Issue 35, by keyboard alone: a skip link past the header and navigation, the grid reached with
 * Tab, an asset opened with Enter, its panels switched, Escape back to the card; every dialog gives
 * focus back to what opened it; a closed phone menu is out of the Tab order; inputs show focus.
 */
const shot = screenshots("a11y-keyboard");
// Conditions, never sleeps; generous because a loaded machine takes seconds to render a page.
const expect = baseExpect.configure({ timeout: 30_000 });

let owner: Awaited<ReturnType<typeof newOwner>>;
let ws = "";
let boardId = "";
test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  owner = await newOwner(browser, "Keyboard studio");
  ws = owner.workspaceId;
  boardId = (await createBoard(owner.page, ws, "Launch")).id;
  for (const [i, name] of ["one.jpg", "two.jpg", "three.jpg"].entries())
    await uploadAsset(owner.page, ws, name, await jpeg(i), boardId);
});
test.afterAll(() => owner?.context.close());
test.beforeEach(() => test.setTimeout(150_000));

/** What has focus, as a screen reader would name it, and whether it sits inside `within`. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName ?? "",
      role: el?.getAttribute("role") ?? "",
      label: el?.getAttribute("aria-label") ?? el?.textContent?.trim().slice(0, 40) ?? "",
      assetId: el?.dataset.assetId ?? "",
      id: el?.id ?? "",
      inNav: !!el?.closest('nav[aria-label="Workspace"]'),
      inMain: !!el?.closest("main"),
    };
  });

/** Presses Tab until `done` holds for the focused element; answers how many presses it took. */
async function tabUntil(page: Page, done: (f: Awaited<ReturnType<typeof focused>>) => boolean, most = 40) {
  for (let n = 1; n <= most; n++) {
    await page.keyboard.press("Tab");
    if (done(await focused(page))) return n;
  }
  throw new Error(`not reached in ${most} Tab presses; last: ${JSON.stringify(await focused(page))}`);
}

test("by keyboard: skip link, Tab to the grid, Enter opens, panels switch, Escape returns to the card", async () => {
  const { page } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${ws}/b/${boardId}`);
  await expect(page.getByRole("gridcell")).toHaveCount(3);
  await expect(page).toHaveTitle("Launch · Hangar");

  // The first Tab stop is the skip link, shown while focused; Enter lands in the main content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await shot(page, "skip-link");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  expect(page.url()).not.toContain("#");
  // From there the grid is a few stops away (the board's own controls), never the header's and the
  // navigation's (17 presses before the skip link existed).
  const presses = await tabUntil(page, (f) => f.role === "gridcell");
  console.log(`Tab presses from the skip link's target to the first card: ${presses}`);
  const first = await focused(page);
  expect(first.inMain).toBe(true);

  // Enter opens the focused card's asset; the viewer has focus and the tab's title names the asset.
  await page.keyboard.press("Enter");
  const viewer = page.getByTestId("asset-viewer");
  await expect(viewer).toBeVisible();
  const name = (await page.getByTestId("viewer-title").textContent()) ?? "";
  await expect(page).toHaveTitle(`${name} · Hangar`);
  await expect.poll(async () => (await focused(page)).tag !== "BODY").toBe(true);

  // Panels by keyboard: Tab to the Details tab, Enter switches to it.
  await tabUntil(page, (f) => f.label === "Details");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("viewer-tab-details")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("viewer-tab-comments")).toHaveAttribute("aria-pressed", "false");
  await shot(page, "viewer-details");

  // Escape closes; focus is back on the card that was opened, the board's title back.
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveCount(0);
  await expect.poll(async () => (await focused(page)).assetId).toBe(first.assetId);
  await expect(page).toHaveTitle("Launch · Hangar");

  // Stepping inside the viewer, focus returns to the card of the asset shown last.
  await page.keyboard.press("Enter");
  await expect(viewer).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("viewer-title")).not.toHaveText(name);
  const second = (await page.getByTestId("viewer-title").textContent()) ?? "";
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveCount(0);
  await expect(page.locator(":focus")).toHaveAccessibleName(cardName(second));
});

/** Opens a dialog from `opener` with the keyboard, closes it with Escape: focus is on `opener` again. */
async function focusComesBack(page: Page, opener: Locator, dialog: Locator) {
  await opener.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(false);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test("the filter drawer, the share dialog and the upload dialog give focus back to their button", async () => {
  const { page } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${ws}/b/${boardId}`);
  await expect(page.getByRole("gridcell")).toHaveCount(3);
  // Twice each: the first opening mounts the dialog (its code loads then), the second reuses it.
  for (let round = 0; round < 2; round++) {
    await focusComesBack(page, page.getByTestId("open-filters"), page.getByRole("dialog", { name: "Filters" }));
    await focusComesBack(page, page.getByTestId("board-share"), page.getByRole("dialog", { name: "Share Board" }));
    await focusComesBack(page, page.getByTestId("upload-button"), page.getByTestId("upload-dialog"));
  }
});

test("a text input's focus is a 2 px ring, as a button's", async () => {
  const { page } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${ws}/b/${boardId}`);
  const search = page.getByRole("searchbox", { name: "Search assets" });
  await search.focus();
  await expect(search).toHaveCSS("outline-style", "solid");
  await expect(search).toHaveCSS("outline-width", "2px");
  await shot(page.getByTestId("asset-toolbar"), "input-focus");
});

test("on a phone the closed menu is out of the Tab order; open, it is in it", async () => {
  const { page } = owner;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/w/${ws}/b/${boardId}`);
  await expect(page.getByRole("gridcell")).toHaveCount(3);
  // From the top of the page to the main content: no stop inside the off-screen navigation.
  const stops: Array<Awaited<ReturnType<typeof focused>>> = [];
  await tabUntil(page, (f) => {
    stops.push(f);
    return f.inMain;
  });
  expect(stops.filter((s) => s.inNav)).toEqual([]);
  // Opened, its links are reachable.
  await page.getByRole("button", { name: "Toggle navigation" }).click();
  const nav = page.getByRole("navigation", { name: "Workspace" });
  await expect(nav.getByRole("link", { name: "Members" })).toBeInViewport();
  await nav.getByRole("link", { name: "Home" }).focus();
  await expect(nav.getByRole("link", { name: "Home" })).toBeFocused();
});
