import { expect, type Page, test } from "@playwright/test";
import { card } from "./asset-grid-helpers.ts";
import { jpeg, newOwner, settled, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api } from "./support.ts";

const shot = screenshots("bulk-tag-field");
const bulkBar = (page: Page) => page.getByTestId("asset-bulk-bar");
const barButton = (page: Page, name: string) => bulkBar(page).getByRole("button", { name, exact: true });

/**
 * Every answer in the 4xx range and every console error the page logs while `run` goes on
 * (issue 35: the bulk bar asked `GET …/assets//field-values` and got 422 each time).
 */
async function clientErrorsDuring(page: Page, run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const onResponse = (r: import("@playwright/test").Response) => {
    if (r.status() >= 400 && r.status() < 500) seen.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  };
  const onConsole = (m: import("@playwright/test").ConsoleMessage) => {
    if (m.type() === "error") seen.push(`console: ${m.text()}`);
  };
  page.on("response", onResponse);
  page.on("console", onConsole);
  try {
    await run();
  } finally {
    page.off("response", onResponse);
    page.off("console", onConsole);
  }
  return seen;
}

test("bulk Tag and Field on two assets send only well-formed requests (no 4xx)", async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page, workspaceId } = await newOwner(browser, "Bulk Requests");
  await api(page, "POST", `/workspaces/${workspaceId}/fields`, { title: "Status", field_type: "TEXT" });
  for (const [i, name] of ["one.jpg", "two.jpg"].entries()) await uploadAsset(page, workspaceId, name, await jpeg(i));

  await page.goto(`/w/${workspaceId}/b/all`);
  await expect(card(page, "one.jpg")).toBeVisible();
  const errors = await clientErrorsDuring(page, async () => {
    await card(page, "one.jpg").click({ modifiers: ["ControlOrMeta"] });
    await card(page, "two.jpg").click({ modifiers: ["ControlOrMeta"] });
    await expect(bulkBar(page).getByTestId("bulk-count")).toHaveText("2 selected");
    await barButton(page, "Tag").hover();
    await barButton(page, "Field").hover();

    await barButton(page, "Tag").click();
    const tags = page.getByRole("dialog", { name: "Edit tags of 2 assets" });
    await settled(tags);
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await shot(page, `tags-dialog-${viewport.width}`);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
    await tags.getByRole("button", { name: "Cancel" }).click();
    await expect(tags).toBeHidden();

    await barButton(page, "Field").click();
    const field = page.getByRole("dialog", { name: "Edit field for 2 assets" });
    await settled(field);
    await expect(field.getByRole("combobox", { name: "Field" })).toHaveValue("Status");
    await field.getByRole("button", { name: "Cancel" }).click();
    await expect(field).toBeHidden();
    // Whatever the dialogs asked for has been answered before we look.
    await page.waitForLoadState("networkidle");
  });
  expect(errors).toEqual([]);
  await context.close();
});

test("bulk Tag adds to each asset's tags by default, and replaces them when asked", async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page, workspaceId } = await newOwner(browser, "Bulk Tags");
  const ids = [
    await uploadAsset(page, workspaceId, "red.jpg", await jpeg(1)),
    await uploadAsset(page, workspaceId, "blue.jpg", await jpeg(5)),
  ];
  await api(page, "POST", `/workspaces/${workspaceId}/assets/tags`, { asset_ids: [ids[0]], tags: ["red"] });
  await api(page, "POST", `/workspaces/${workspaceId}/assets/tags`, { asset_ids: [ids[1]], tags: ["blue"] });
  const tagsOf = async () =>
    Promise.all(
      ids.map(async (id) =>
        (await api<{ tags: string[] }>(page, "GET", `/workspaces/${workspaceId}/assets/${id}`)).tags.sort(),
      ),
    );

  await page.goto(`/w/${workspaceId}/b/all`);
  await card(page, "red.jpg").click({ modifiers: ["ControlOrMeta"] });
  await card(page, "blue.jpg").click({ modifiers: ["ControlOrMeta"] });
  await barButton(page, "Tag").click();
  const dialog = page.getByRole("dialog", { name: "Edit tags of 2 assets" });
  await expect(dialog.getByRole("radio", { name: "Add tags" })).toBeChecked();
  await dialog.getByRole("textbox", { name: "Tags" }).fill("summer");
  await dialog.getByRole("button", { name: "Save tags" }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(tagsOf).toEqual([
    ["red", "summer"],
    ["blue", "summer"],
  ]);

  await barButton(page, "Tag").click();
  await dialog.getByText("Replace tags").click();
  await expect(dialog.getByRole("textbox", { name: "Tags" })).toHaveValue("summer");
  await dialog.getByRole("textbox", { name: "Tags" }).fill("final");
  await dialog.getByRole("button", { name: "Save tags" }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(tagsOf).toEqual([["final"], ["final"]]);
  await context.close();
});
