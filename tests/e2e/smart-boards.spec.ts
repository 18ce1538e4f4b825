import { type Browser, expect, type Page, test } from "@playwright/test";
import { cards, fileNames } from "./asset-grid-helpers.ts";
import { expectToast, jpeg, newOwner, settled, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api } from "./support.ts";

/** Smart boards (issue 33): saved from the filter builder, shown live, shared by link. */
const shot = screenshots("smart-boards");

let owner: Awaited<ReturnType<typeof newOwner>>;
let campaigns = "";
const ids: Record<string, string> = {};

const tag = (page: Page, assetIds: string[], tags: string[]) =>
  api(page, "POST", `/workspaces/${owner.workspaceId}/assets/tags`, { asset_ids: assetIds, tags, mode: "add" });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(180_000);
  owner = await newOwner(browser, "Smart studio");
  const ws = owner.workspaceId;
  campaigns = (await api<{ id: string }>(owner.page, "POST", `/workspaces/${ws}/boards`, { name: "Campaigns" })).id;
  for (const [i, name] of ["beach.jpg", "snow.jpg", "late-sun.jpg"].entries())
    ids[name] = await uploadAsset(owner.page, ws, name, await jpeg(i + 1));
  for (const id of Object.values(ids))
    await expect
      .poll(async () => (await api<{ status: string }>(owner.page, "GET", `/workspaces/${ws}/assets/${id}`)).status, {
        timeout: 60_000,
      })
      .toBe("COMPLETED");
  await tag(owner.page, [ids["beach.jpg"]!], ["summer"]);
});
test.afterAll(async () => {
  await owner?.context.close();
});

test("save a smart board from the filter builder, share it, and see a newly tagged asset appear", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page, workspaceId: ws } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${ws}/b/all`);
  await expect(cards(page)).toHaveCount(3);

  // The filter builder: tag "summer", then "Save as smart board" under Campaigns.
  await page.getByTestId("open-filters").click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId("save-smart-board")).toBeDisabled();
  const tags = drawer.getByLabel("Has any of these tags", { exact: true });
  await tags.fill("summer");
  await tags.press("Enter");
  await expect(drawer.getByTestId("save-smart-board")).toBeEnabled();
  await shot(page, "filter-builder");
  await drawer.getByTestId("save-smart-board").click();
  const dialog = page.getByRole("dialog", { name: "Save as smart board" });
  await expect(dialog).toBeVisible();
  await settled(dialog);
  await dialog.getByLabel("Name").fill("Summer picks");
  await dialog.getByRole("combobox", { name: "Place it in" }).click();
  await page.getByRole("option", { name: "Campaigns", exact: true }).click();
  await shot(page, "save-dialog");
  await dialog.getByTestId("save-smart-submit").click();
  await expectToast(page, "Smart board saved");

  // Its page: the badge, the saved filter as chips, the live result; no sub-board or upload affordance.
  await expect(page).toHaveURL(new RegExp(`/w/${ws}/b/[0-9a-f-]{36}`));
  const smartId = /\/b\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await expect(page.getByTestId("smart-board-badge")).toHaveText("Smart board");
  await expect(page.getByTestId("smart-board-summary")).toContainText("summer");
  await expect.poll(() => fileNames(cards(page))).toEqual(["beach.jpg"]);
  // In the tree under Campaigns, with its own icon and no "Create Sub-Board".
  const row = page.locator(`[role=treeitem][data-board-id="${smartId}"]`);
  await expect(row).toBeVisible();
  await expect(row.locator("svg[data-smart]")).toHaveCount(1);
  await row.hover();
  await expect(row.getByRole("button", { name: "Create Sub-Board" })).toHaveCount(0);
  const saved = await api<Array<{ id: string; children?: Array<{ id: string; kind: string }> }>>(
    page,
    "GET",
    `/workspaces/${ws}/boards?recursive=true`,
  );
  expect(saved.find((b) => b.id === campaigns)?.children?.[0]).toMatchObject({ id: smartId, kind: "smart" });
  await shot(page, "board");

  // "Edit filter" from the board's menu opens the builder on the saved filter.
  await page.getByRole("button", { name: "Board options" }).click();
  await page.getByRole("menuitem", { name: "Edit filter" }).click();
  const editor = page.getByRole("dialog", { name: "Filter of “Summer picks”" });
  await expect(editor).toBeVisible();
  await expect(editor.getByText("summer", { exact: true })).toBeVisible();
  await expect(editor.getByTestId("save-smart-board")).toHaveCount(0);
  await shot(page, "edit-filter");
  await editor.getByRole("button", { name: "Cancel" }).click();
  await expect(editor).toBeHidden();

  // Share it; a visitor sees the live result.
  await page.getByTestId("board-share").click();
  const share = page.getByRole("dialog", { name: "Share Board" });
  await expect(share).toBeVisible();
  const url = await page.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
  await page.keyboard.press("Escape");
  const visitorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const visitor = await visitorContext.newPage();
  await visitor.goto(url);
  await expect(visitor.getByTestId("shared-board-name")).toHaveText("Summer picks");
  await expect(visitor.getByTestId("shared-card")).toHaveCount(1);

  // A newly tagged asset appears for the member and the visitor.
  await tag(page, [ids["late-sun.jpg"]!], ["Summer"]);
  await page.reload();
  await expect.poll(() => fileNames(cards(page))).toEqual(["late-sun.jpg", "beach.jpg"]);
  await visitor.reload();
  await expect(visitor.getByTestId("shared-card")).toHaveCount(2);
  await expect(visitor.getByTestId("shared-card").filter({ hasText: "late-sun.jpg" })).toBeVisible();
  await expect(visitor.getByTestId("shared-card").filter({ hasText: "snow.jpg" })).toHaveCount(0);
  await shot(visitor, "visitor");

  // A phone, 390 px: the board page and the visitor's page.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId("smart-board-badge")).toBeVisible();
  await expect.poll(() => fileNames(cards(page))).toEqual(["late-sun.jpg", "beach.jpg"]);
  await shot(page, "board-phone");
  await visitor.setViewportSize({ width: 390, height: 844 });
  await expect(visitor.getByTestId("shared-card")).toHaveCount(2);
  await shot(visitor, "visitor-phone");
  await visitorContext.close();
});
