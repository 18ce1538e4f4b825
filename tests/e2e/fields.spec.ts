import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { card } from "./asset-grid-helpers.ts";
import { expectToast, jpeg, newOwner, settled, uploadAsset } from "./assets-support.ts";
import { baseUrl, inviteAndJoin } from "./support.ts";

/** Custom fields (issue #16): defined in settings, set from the bulk bar and the viewer, filtered on. */
const SCREENS = "test-results/screens";
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENS}/fields-${name}.png` });

let owner: Awaited<ReturnType<typeof newOwner>>;
let viewer: { context: BrowserContext; page: Page };
const ids: string[] = [];

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(180_000);
  owner = await newOwner(browser, "Fields studio");
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await inviteAndJoin(owner.page, page, owner.workspaceId, "COMMENTER");
  viewer = { context, page };
  for (let i = 0; i < 3; i++)
    ids.push(await uploadAsset(owner.page, owner.workspaceId, `shot-${i}.jpg`, await jpeg(i)));
});
test.afterAll(async () => {
  await owner?.context.close();
  await viewer?.context.close();
});

test("an ADMIN defines fields, sets one on many assets, edits one in the viewer and filters by it; a COMMENTER reads", async () => {
  test.setTimeout(120_000);
  const { page, workspaceId } = owner;
  await page.goto(`/w/${workspaceId}/settings/fields`);
  await expect(page.getByText("No custom fields")).toBeVisible();
  await page.getByLabel("New field").fill("Status");
  await page.getByRole("button", { name: "Add field" }).click();
  const status = page.getByTestId("field-card").filter({ has: page.locator('input[value="Status"]') });
  await expect(status).toBeVisible();
  for (const [label, color] of [
    ["Draft", "#9e9e9e"],
    ["Approved", "#2f9e44"],
  ] as const) {
    await status.getByLabel("New option colour").fill(color);
    await status.getByLabel("New option", { exact: true }).fill(label);
    await status.getByRole("button", { name: "Add option" }).click();
    await expect(
      status.getByTestId("field-option").filter({ has: page.locator(`input[value="${label}"]`) }),
    ).toBeVisible();
  }
  await page.getByLabel("New field").fill("Notes");
  await page.getByRole("combobox", { name: "Type" }).first().click();
  await page.getByRole("option", { name: "Text" }).click();
  await page.getByRole("button", { name: "Add field" }).click();
  await expect(page.getByTestId("field-card")).toHaveCount(2);
  await shot(page, "settings");

  // Many assets from the bulk bar.
  await page.goto(`/w/${workspaceId}/b/all`);
  await card(page, "shot-0.jpg").click({ modifiers: ["ControlOrMeta"] });
  await card(page, "shot-1.jpg").click({ modifiers: ["ControlOrMeta"] });
  await page.getByTestId("asset-bulk-bar").getByRole("button", { name: "Field", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit field for 2 assets" });
  await settled(dialog);
  await dialog.getByRole("combobox", { name: "Value" }).click();
  await page.getByRole("option", { name: "Approved" }).click();
  await shot(page, "dialog");
  await dialog.getByTestId("field-dialog-save").click();
  await expectToast(page, 'Field "Status" updated for 2 item(s)');

  // One in the viewer's fields tab.
  await page.goto(`/w/${workspaceId}/a/${ids[2]}`);
  await page.getByTestId("viewer-tab-fields").click();
  const panel = page.getByTestId("fields-panel");
  await expect(panel.getByText("Fields", { exact: true })).toBeVisible();
  await panel.getByRole("textbox", { name: "Notes" }).fill("Needs a retouch");
  await panel.getByRole("textbox", { name: "Notes" }).press("Enter");
  await panel.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Draft" }).click();
  await expect(panel.getByRole("combobox", { name: "Status" })).toHaveValue("Draft");
  await shot(page, "viewer-tab");

  // The filter.
  await page.goto(`/w/${workspaceId}/b/all`);
  await page.getByRole("button", { name: /^Filters/ }).click();
  const drawer = page.getByTestId("filter-drawer");
  await drawer.getByRole("button", { name: "Custom fields" }).click();
  await drawer.getByTestId("filter-custom-fields").locator(".mantine-MultiSelect-input").first().click();
  await page.getByRole("option", { name: "Approved" }).click();
  await shot(page, "filter");
  await drawer.getByRole("button", { name: /^Apply/ }).click();
  await expect(page.getByTestId("asset-card")).toHaveCount(2);
  await expect(card(page, "shot-2.jpg")).toHaveCount(0);
  // A field's value as a coloured chip on the cards (a per-browser choice).
  await page.getByTestId("card-field-picker").click();
  await page.getByRole("option", { name: "Status" }).click();
  await expect(card(page, "shot-0.jpg").getByTestId("card-field-chip")).toHaveText("Approved");
  await shot(page, "card-chips");

  // A COMMENTER sees the values, read-only.
  const c = viewer.page;
  await c.goto(`/w/${workspaceId}/a/${ids[2]}`);
  await c.getByTestId("viewer-tab-fields").click();
  const cp = c.getByTestId("fields-panel");
  await expect(cp.getByRole("textbox", { name: "Notes" })).toHaveValue("Needs a retouch");
  await expect(cp.getByRole("textbox", { name: "Notes" })).toBeDisabled();
  await c.goto(`/w/${workspaceId}/settings/fields`);
  await expect(c.getByRole("button", { name: "Add field" })).toHaveCount(0);
});
