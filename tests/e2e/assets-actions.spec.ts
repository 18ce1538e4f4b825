import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { card, cards } from "./asset-grid-helpers.ts";
import { createBoard, expectToast, jpeg, newOwner, settled, shot, uploadAsset, zipEntries } from "./assets-support.ts";
import { screenshot } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin } from "./support.ts";

interface AssetJson {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  favorite: boolean;
  boards: Array<{ id: string; name: string }>;
}

const getAsset = (page: Page, workspaceId: string, id: string) =>
  api<AssetJson>(page, "GET", `/workspaces/${workspaceId}/assets/${id}`);

const bulkBar = (page: Page) => page.getByTestId("asset-bulk-bar");
const barButton = (page: Page, name: string) => bulkBar(page).getByRole("button", { name, exact: true });

/** The cards' names in grid order. */
const gridNames = (page: Page) =>
  cards(page).evaluateAll((els) =>
    els
      .map((el) => ({
        i: Number(el.getAttribute("data-index")),
        name: el.querySelector('[data-testid="asset-card-name"]')?.textContent ?? "",
      }))
      .sort((a, b) => a.i - b.i)
      .map((c) => c.name),
  );

test("bulk actions from the grid: Shift-select, tag, move to a board, remove from it, delete, restore", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page, workspaceId } = await newOwner(browser, "Bulk Bay");
  const campaign = await createBoard(page, workspaceId, "Campaign");
  await createBoard(page, workspaceId, "Archive");
  const ids = new Map<string, string>();
  for (const [i, name] of ["alpha.jpg", "bravo.jpg", "charlie.jpg", "delta.jpg"].entries()) {
    ids.set(name, await uploadAsset(page, workspaceId, name, await jpeg(i)));
  }

  await page.goto(`/w/${workspaceId}/b/all`);
  await expect(cards(page)).toHaveCount(4);
  const order = await gridNames(page);
  // Ctrl-click the first card (select, no preview), Shift-click the third: a range of three.
  await card(page, order[0]!).click({ modifiers: ["ControlOrMeta"] });
  await card(page, order[2]!).click({ modifiers: ["Shift"] });
  const picked = order.slice(0, 3);
  await expect(bulkBar(page).getByTestId("bulk-count")).toHaveText("3 selected");
  // One favourite toggle (issue #13): none of them is a favourite yet, so it offers Favourite.
  await expect(barButton(page, "Unfavourite")).toHaveCount(0);
  for (const label of ["Tag", "Favourite", "Add to board", "Move", "Download", "Delete"]) {
    await expect(barButton(page, label)).toBeVisible();
  }
  // At 1280 and 1440 px the bar is one line: Clear selection sits beside the count (issue #13).
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 860 });
    const count = (await bulkBar(page).getByTestId("bulk-count").boundingBox())!;
    const clear = (await bulkBar(page).getByRole("button", { name: "Clear selection" }).boundingBox())!;
    expect(Math.abs(clear.y + clear.height / 2 - (count.y + count.height / 2)), `${width} px`).toBeLessThan(8);
    await screenshot(page, `bulk-bar-${width}`);
  }
  // Not in a board: no "Remove from board". Share is there (each asset's link is bound to a board,
  // so from All Assets & Files it says so: see tests/e2e/shares.spec.ts).
  await expect(barButton(page, "Remove from board")).toHaveCount(0);
  await expect(barButton(page, "Share")).toHaveCount(1);
  await shot(page, "bulk-bar");

  // Tag: comma-separated, trimmed, empties dropped, duplicates ignored.
  await barButton(page, "Tag").click();
  const tags = page.getByRole("dialog", { name: "Edit tags of 3 assets" });
  await tags.getByRole("textbox", { name: "Tags" }).fill("  summer, beach,, Summer ,  ");
  await expect(tags.getByTestId("tags-preview").locator(".mantine-Badge-root")).toHaveText(["summer", "beach"]);
  await settled(tags);
  await shot(page, "tags-dialog");
  await tags.getByRole("button", { name: "Save tags" }).click();
  await expectToast(page, "Tags updated for 3 asset(s)");
  for (const name of picked) {
    expect((await getAsset(page, workspaceId, ids.get(name)!)).tags.sort()).toEqual(["beach", "summer"]);
  }
  expect((await getAsset(page, workspaceId, ids.get(order[3]!)!)).tags).toEqual([]);
  await expect(bulkBar(page).getByTestId("bulk-count")).toHaveText("3 selected");

  // Move to a board through the picker; the selection clears after.
  await barButton(page, "Move").click();
  const picker = page.getByRole("dialog", { name: "Move 3 assets" });
  await picker.getByRole("treeitem", { name: "Campaign" }).click();
  await expect(picker).toContainText("To: Campaign");
  await settled(picker);
  await shot(page, "move-dialog");
  await picker.getByRole("button", { name: "Move here" }).click();
  await expectToast(page, "Moved to board: Campaign");
  await expect(bulkBar(page)).toBeHidden();
  for (const name of picked) {
    expect((await getAsset(page, workspaceId, ids.get(name)!)).boards.map((b) => b.name)).toEqual(["Campaign"]);
  }

  // In the board: remove two from it (they stay in the workspace), then the last one from its menu.
  await page.goto(`/w/${workspaceId}/b/${campaign.id}`);
  await expect(cards(page)).toHaveCount(3);
  await card(page, picked[0]!).click({ modifiers: ["ControlOrMeta"] });
  await card(page, picked[1]!).click({ modifiers: ["ControlOrMeta"] });
  await expect(bulkBar(page).getByTestId("bulk-count")).toHaveText("2 selected");
  await barButton(page, "Remove from board").click();
  const remove = page.getByRole("dialog", { name: "Remove from board" });
  await expect(remove).toContainText("Remove 2 assets from “Campaign”?");
  await remove.getByRole("button", { name: "Remove" }).click();
  await expectToast(page, "2 asset(s) removed from board");
  await expect(cards(page)).toHaveCount(1);
  await card(page, picked[2]!).hover();
  await card(page, picked[2]!)
    .getByRole("button", { name: `Actions for ${picked[2]}` })
    .click();
  await page.getByRole("menuitem", { name: "Remove from board" }).click();
  await page.getByRole("dialog", { name: "Remove from board" }).getByRole("button", { name: "Remove" }).click();
  await expectToast(page, `"${picked[2]}" removed from board`);
  await expect(page.getByTestId("board-empty")).toBeVisible();
  expect((await getAsset(page, workspaceId, ids.get(picked[0]!)!)).boards).toEqual([]);

  // Delete two from All assets: confirmation, then they go to Recently deleted.
  await page.goto(`/w/${workspaceId}/b/all`);
  await expect(cards(page)).toHaveCount(4);
  await card(page, "alpha.jpg").click({ modifiers: ["ControlOrMeta"] });
  await card(page, "charlie.jpg").click({ modifiers: ["ControlOrMeta"] });
  await barButton(page, "Delete").click();
  const del = page.getByRole("dialog", { name: "Delete 2 assets" });
  await expect(del).toContainText("Are you sure you want to delete these 2 assets?");
  await settled(del);
  await shot(page, "delete-dialog");
  await del.getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Items deleted successfully");
  await expect(cards(page)).toHaveCount(2);
  await expect(bulkBar(page)).toBeHidden();
  await expect(card(page, "alpha.jpg")).toHaveCount(0);

  // Restore both from Recently deleted.
  await page.getByRole("link", { name: "Recently deleted" }).click();
  await expect(page.getByTestId("trash-assets").getByTestId("trash-row")).toHaveCount(2);
  await page.getByRole("checkbox", { name: "Select all deleted assets" }).check();
  await page.getByTestId("trash-bulk-actions").getByRole("button", { name: "Restore" }).click();
  await expectToast(page, "2 item(s) restored");
  await expect(page.getByTestId("recently-deleted-empty")).toBeVisible();
  await page.getByRole("link", { name: "All assets" }).click();
  await expect(cards(page)).toHaveCount(4);
  await expect(card(page, "alpha.jpg")).toBeVisible();
  await context.close();
});

const sha256 = (buf: Buffer) => createHash("sha256").update(buf).digest("hex");

test("one asset's menu: rename with description, tags prefilled, favourite, download direct and in ranged parts", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page, workspaceId } = await newOwner(browser, "Single Sail");
  const smallBytes = await jpeg(9);
  const small = await uploadAsset(page, workspaceId, "small.jpg", smallBytes);
  // Above the 5 MB threshold: downloaded as 2 MiB ranges and joined.
  const bigBytes = randomBytes(6 * 1024 * 1024 + 12_345);
  await uploadAsset(page, workspaceId, "big.bin", bigBytes, undefined, "application/octet-stream");
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-dl-"));

  await page.goto(`/w/${workspaceId}/b/all`);
  await expect(cards(page)).toHaveCount(2);
  const openMenu = async (name: string) => {
    // The last card's menu has finished closing first: two menus at once would name two Downloads.
    await expect(page.getByRole("menu")).toHaveCount(0);
    await card(page, name).hover();
    await card(page, name)
      .getByRole("button", { name: `Actions for ${name}` })
      .click();
    return page.getByRole("menu");
  };

  let menu = await openMenu("small.jpg");
  await expect(menu.getByRole("menuitem")).toHaveText([
    "Rename…",
    "Edit tags…",
    "Edit field…",
    "Upload new version…",
    "Add to favourites",
    "Add to board…",
    "Move to board…",
    "Share…",
    "Download",
    "Find similar",
    "Delete",
  ]);
  await settled(menu);
  await shot(page, "card-menu");
  await menu.getByRole("menuitem", { name: "Rename…" }).click();
  const rename = page.getByRole("dialog", { name: "Rename asset" });
  await rename.getByRole("textbox", { name: "Name" }).fill("   ");
  await expect(rename.getByRole("button", { name: "Save" })).toBeDisabled();
  await rename.getByRole("textbox", { name: "Name" }).fill("  harbour at dusk.jpg ");
  await rename.getByRole("textbox", { name: "Description" }).fill("Golden hour from the pier");
  await settled(rename);
  await shot(page, "rename-dialog");
  await rename.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Asset renamed successfully");
  await expect(card(page, "harbour at dusk.jpg")).toBeVisible();
  const renamed = await getAsset(page, workspaceId, small);
  expect([renamed.name, renamed.description]).toEqual(["harbour at dusk.jpg", "Golden hour from the pier"]);

  menu = await openMenu("harbour at dusk.jpg");
  await menu.getByRole("menuitem", { name: "Edit tags…" }).click();
  let tags = page.getByRole("dialog", { name: "Edit tags" });
  await expect(tags.getByRole("textbox", { name: "Tags" })).toHaveValue("");
  await tags.getByRole("textbox", { name: "Tags" }).fill("dusk, harbour, dusk");
  await tags.getByRole("textbox", { name: "Tags" }).press("Enter");
  await expectToast(page, "Tags updated for 1 asset(s)");
  await expect(tags).toBeHidden();
  menu = await openMenu("harbour at dusk.jpg");
  await menu.getByRole("menuitem", { name: "Edit tags…" }).click();
  tags = page.getByRole("dialog", { name: "Edit tags" });
  await expect(tags.getByRole("textbox", { name: "Tags" })).toHaveValue("dusk, harbour");
  await tags.getByRole("button", { name: "Cancel" }).click();

  menu = await openMenu("harbour at dusk.jpg");
  await menu.getByRole("menuitem", { name: "Add to favourites" }).click();
  await expectToast(page, "Added to favourites");
  // The star shows when the card is neither hovered nor focused (the menu button takes its place then).
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect(card(page, "harbour at dusk.jpg").getByLabel("Favourite")).toBeVisible();
  expect((await getAsset(page, workspaceId, small)).favorite).toBe(true);

  // Direct download: the original's bytes under its name.
  menu = await openMenu("harbour at dusk.jpg");
  const directDownload = page.waitForEvent("download");
  await menu.getByRole("menuitem", { name: "Download" }).click();
  const direct = await directDownload;
  expect(direct.suggestedFilename()).toBe("harbour at dusk.jpg");
  const directFile = path.join(dir, "direct.jpg");
  await direct.saveAs(directFile);
  expect(sha256(readFileSync(directFile))).toBe(sha256(smallBytes));

  // Multipart: one ranged GET per 2 MiB part, joined in order.
  const ranges: string[] = [];
  page.on("request", (request) => {
    const range = request.headers().range;
    if (range) ranges.push(range);
  });
  menu = await openMenu("big.bin");
  const partsDownload = page.waitForEvent("download");
  await menu.getByRole("menuitem", { name: "Download" }).click();
  const joined = await partsDownload;
  expect(joined.suggestedFilename()).toBe("big.bin");
  const joinedFile = path.join(dir, "big.bin");
  await joined.saveAs(joinedFile);
  expect(sha256(readFileSync(joinedFile))).toBe(sha256(bigBytes));
  const MiB2 = 2 * 1024 * 1024;
  expect(ranges.sort()).toEqual(
    [0, 1, 2, 3].map((i) => `bytes=${i * MiB2}-${Math.min((i + 1) * MiB2, bigBytes.length) - 1}`).sort(),
  );
  // The flag resets at the end of a single-asset download: the panel goes.
  await expect(page.getByTestId("download-progress")).toBeHidden();
  await context.close();
});

test("a commenter may favourite and download from the bulk bar and the menu, not edit", async ({ browser }) => {
  test.setTimeout(90_000);
  const { context, page, workspaceId } = await newOwner(browser, "Comment Cove");
  await uploadAsset(page, workspaceId, "one.jpg", await jpeg(1));
  await uploadAsset(page, workspaceId, "two.jpg", await jpeg(2));
  const commenterContext = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 820 } });
  const commenter = await commenterContext.newPage();
  await inviteAndJoin(page, commenter, workspaceId, "COMMENTER");
  await commenter.goto(`/w/${workspaceId}/b/all`);
  await expect(cards(commenter)).toHaveCount(2);
  await card(commenter, "one.jpg").click({ modifiers: ["ControlOrMeta"] });
  await card(commenter, "two.jpg").click({ modifiers: ["ControlOrMeta"] });
  await expect(bulkBar(commenter).getByTestId("bulk-count")).toHaveText("2 selected");
  await expect(bulkBar(commenter).getByRole("button")).toHaveText(["Favourite", "Download", "", ""]);
  // Compare (issue 29) is a commenter's too, under More actions; stacking as versions is an edit.
  await bulkBar(commenter).getByRole("button", { name: "More actions" }).click();
  await expect(commenter.getByRole("menu").getByRole("menuitem")).toHaveText(["Compare"]);
  await commenter.keyboard.press("Escape");
  await expect(commenter.getByRole("menu")).toHaveCount(0);
  await shot(commenter, "bulk-bar-commenter");
  await barButton(commenter, "Favourite").click();
  await expectToast(commenter, "Added to favourites");
  // Both are favourites now: the toggle offers the way back.
  await expect(barButton(commenter, "Unfavourite")).toBeVisible();
  await commenter.mouse.move(0, 0);
  await expect(card(commenter, "one.jpg").getByLabel("Favourite")).toBeVisible();
  // The owner's own favourites are untouched (a favourite is the member's own).
  await page.goto(`/w/${workspaceId}/b/all`);
  await expect(cards(page)).toHaveCount(2);
  await expect(card(page, "one.jpg").getByLabel("Favourite")).toHaveCount(0);

  // A unified zip of the two.
  const zipDownload = commenter.waitForEvent("download");
  await barButton(commenter, "Download").click();
  const zip = await zipDownload;
  expect(zip.suggestedFilename()).toMatch(/^download-\d{4}-\d{2}-\d{2}\.zip$/);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "hangar-zip-")), "items.zip");
  await zip.saveAs(file);
  expect(zipEntries(file)).toEqual(["one.jpg", "two.jpg"]);

  await card(commenter, "one.jpg").hover();
  await card(commenter, "one.jpg").getByRole("button", { name: "Actions for one.jpg" }).click();
  await expect(commenter.getByRole("menu").getByRole("menuitem")).toHaveText([
    "Remove from favourites",
    "Download",
    "Find similar",
  ]);
  await commenterContext.close();
  await context.close();
});
