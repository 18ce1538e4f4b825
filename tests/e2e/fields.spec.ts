import { createRequire } from "node:module";
import path from "node:path";
import type { CustomField } from "@hangar/contract";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { card } from "./asset-grid-helpers.ts";
import { expectToast, jpeg, newOwner, settled, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin } from "./support.ts";

/** Custom fields (issue #16): defined in settings, set from the bulk bar and the viewer, filtered on. */
const shot = screenshots("fields");

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

/** A picture of printed words, as a scan or a slide would carry them. */
const textPng = (line: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="330"><rect width="100%" height="100%" fill="#fdfdf8"/>
        <text x="70" y="200" font-family="DejaVu Sans, sans-serif" font-size="90" fill="#1a1a1a">${line}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();

test("an ADMIN adds an AI action to an option; an uploaded image gets that option with the AI mark and its evidence", async () => {
  test.setTimeout(150_000);
  const { page, workspaceId } = owner;
  // One picture with text is there before the action: "Run on all assets" reaches it.
  const older = await uploadAsset(
    page,
    workspaceId,
    "old-scan.png",
    await textPng("Invoice 2025"),
    undefined,
    "image/png",
  );
  await page.goto(`/w/${workspaceId}/settings/fields`);
  await page.getByLabel("New field").fill("Paperwork");
  await page.getByRole("button", { name: "Add field" }).click();
  const field = page.getByTestId("field-card").filter({ has: page.locator('input[value="Paperwork"]') });
  for (const label of ["Invoice", "People", "Other"]) {
    await field.getByLabel("New option", { exact: true }).fill(label);
    await field.getByRole("button", { name: "Add option" }).click();
    await expect(
      field.getByTestId("field-option").filter({ has: page.locator(`input[value="${label}"]`) }),
    ).toBeVisible();
  }
  await field.getByRole("button", { name: "Add AI action" }).first().click();
  const form = page.getByTestId("ai-action-form");
  await settled(page.getByRole("dialog"));
  await form.getByTestId("ai-action-kind").click();
  await page.getByRole("option", { name: "Text in image" }).click();
  await form.getByTestId("schema-words").fill("invoice");
  await form.getByTestId("schema-words").press("Enter");
  await shot(page, "ai-action-form");
  await form.getByRole("button", { name: "Add action" }).click();
  await expectToast(page, 'AI action added to "Invoice"');
  await expect(field.getByTestId("ai-action")).toContainText("Text in image");
  await expect(field.getByTestId("ai-action")).toContainText("any of: invoice");
  await shot(page, "ai-action-settings");
  // Editing opens the same form filled with the saved config.
  await field.getByRole("button", { name: "Edit AI action" }).click();
  await settled(page.getByRole("dialog"));
  await expect(page.getByTestId("ai-action-kind")).toHaveValue("Text in image");
  await expect(page.getByTestId("ai-action-form").getByText("invoice", { exact: true })).toBeVisible();
  await page.getByTestId("ai-action-form").getByRole("button", { name: "Cancel" }).click();
  await field.getByRole("button", { name: "Run on all assets" }).click();
  await expect(field.getByTestId("ai-run-status")).toHaveText("Done: 4 asset(s) checked, 1 changed", {
    timeout: 30_000,
  });
  await shot(page, "ai-run");
  const olderValues = await api<Array<{ field_id: string; value_display: string; set_by: { kind: string } }>>(
    page,
    "GET",
    `/workspaces/${workspaceId}/assets/${older}/field-values`,
  );
  expect(olderValues.map((v) => [v.value_display, v.set_by.kind])).toContainEqual(["Invoice", "action"]);

  const id = await uploadAsset(
    page,
    workspaceId,
    "invoice-scan.png",
    await textPng("Hangar invoice 2026"),
    undefined,
    "image/png",
  );
  await page.goto(`/w/${workspaceId}/a/${id}`);
  await page.getByTestId("viewer-tab-fields").click();
  const panel = page.getByTestId("fields-panel");
  await expect(panel.getByRole("combobox", { name: "Paperwork" })).toHaveValue("Invoice");
  await panel.getByTestId("ai-mark").hover();
  const evidence = page.getByTestId("ai-evidence");
  await expect(evidence).toContainText("“Invoice” set by AI");
  await expect(evidence).toContainText("Read “invoice”");
  await shot(page, "ai-evidence");
  // The text is shown in the details tab too.
  await page.getByTestId("viewer-tab-details").click();
  await expect(page.getByTestId("recognised-text")).toContainText("Hangar invoice 2026");
  await shot(page, "recognised-text");

  // A photo with people, by an object_detected action added through the API: its evidence is the box.
  const fields = await api<CustomField[]>(page, "GET", `/workspaces/${workspaceId}/fields`);
  const paperwork = fields.find((f) => f.title === "Paperwork")!;
  const people = paperwork.options.find((o) => o.label === "People")!;
  await api(page, "POST", `/workspaces/${workspaceId}/custom-fields/${paperwork.id}/options/${people.id}/ai-actions`, {
    kind: "object_detected",
    config: { labels: ["person"], min_confidence: 0.3 },
  });
  const samples = path.join(
    path.dirname(createRequire(import.meta.url).resolve("@vladmandic/human")),
    "..",
    "assets",
    "samples.jpg",
  );
  const photo = await sharp(samples).extract({ left: 0, top: 200, width: 640, height: 958 }).jpeg().toBuffer();
  const pid = await uploadAsset(page, workspaceId, "group.jpg", photo);
  await page.goto(`/w/${workspaceId}/a/${pid}`);
  await page.getByTestId("viewer-tab-fields").click();
  await expect(panel.getByRole("combobox", { name: "Paperwork" })).toHaveValue("People");
  await panel.getByTestId("ai-mark").hover();
  await expect(page.getByTestId("ai-evidence")).toContainText("Saw person");
  await expect(page.getByTestId("ai-boxes").locator("rect").first()).toBeVisible();
  await shot(page, "ai-evidence-people");
});
