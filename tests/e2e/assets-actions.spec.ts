import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { api, baseUrl, inviteAndJoin, signUpWithWorkspace } from "./support.ts";

/** Screenshots for review go next to the notes. */
const SCREENS = process.env.HANGAR_SCREENS_DIR ?? "/work/notes/screens";
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENS, `assets-actions-${name}.png`), fullPage: false });

/** A dialog done animating in (for screenshots). */
const settled = (dialog: Locator) => expect(dialog).toHaveCSS("opacity", "1");

const toasts = (page: Page) => page.locator(".mantine-Notification-root");
const expectToast = (page: Page, text: string) => expect(toasts(page).filter({ hasText: text }).last()).toBeVisible();

/** A small distinct JPEG (a colour and a shape), as the uploads flow makes them. */
async function jpeg(i: number): Promise<Buffer> {
  const hue = (i * 67) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360">
    <rect width="480" height="360" fill="hsl(${hue},65%,55%)"/>
    <circle cx="${140 + i * 30}" cy="180" r="${70 + i * 6}" fill="#fff" fill-opacity="0.35"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/**
 * Uploads one file through the API as the upload dialog does (init → PUT to the signed URL, or each
 * part with its ETag → complete); answers its id.
 */
async function uploadAsset(
  page: Page,
  workspaceId: string,
  name: string,
  bytes: Buffer,
  boardId?: string,
  contentType = "image/jpeg",
) {
  const init = await api<{
    asset_id: string;
    upload_id: string;
    key: string;
    direct_url?: string;
    parts?: Array<{ part_number: number; start_byte: number; end_byte: number; url: string }>;
  }>(page, "POST", `/workspaces/${workspaceId}/assets/upload`, {
    name,
    size: bytes.length,
    content_type: contentType,
    board_id: boardId ?? null,
  });
  const abs = (u: string) => (u.startsWith("http") ? u : `${baseUrl()}${u}`);
  const parts: Array<{ part_number: number; etag: string }> = [];
  if (init.direct_url) {
    const put = await page.request.put(abs(init.direct_url), { data: bytes, headers: { "Content-Type": contentType } });
    expect(put.ok(), `PUT ${name}`).toBe(true);
  } else {
    for (const part of init.parts ?? []) {
      const put = await page.request.put(abs(part.url), { data: bytes.subarray(part.start_byte, part.end_byte + 1) });
      expect(put.ok(), `PUT ${name} part ${part.part_number}`).toBe(true);
      parts.push({ part_number: part.part_number, etag: put.headers().etag! });
    }
  }
  await api(page, "POST", `/workspaces/${workspaceId}/assets/upload/complete`, {
    upload_id: init.upload_id,
    key: init.key,
    parts,
  });
  // Listings show an asset once processing is over (it is temporary until then).
  await expect
    .poll(
      async () =>
        (await api<{ is_temp: boolean }>(page, "GET", `/workspaces/${workspaceId}/assets/${init.asset_id}`)).is_temp,
      { timeout: 60_000, message: `${name} processed` },
    )
    .toBe(false);
  return init.asset_id;
}

const createBoard = (page: Page, workspaceId: string, name: string, parentId: string | null = null) =>
  api<{ id: string; name: string }>(page, "POST", `/workspaces/${workspaceId}/boards`, { name, parent_id: parentId });

async function assetStatus(page: Page, workspaceId: string, id: string): Promise<number> {
  const res = await page.request.get(`${baseUrl()}/api/v1/workspaces/${workspaceId}/assets/${id}`);
  return res.status();
}

async function newOwner(browser: Browser, workspaceName: string) {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "assets", firstName: "Olivia", workspaceName });
  return { context, page, workspaceId };
}

/** The files in a zip on disk (unzip -Z1 lists one name a line; folder entries end in "/"). */
function zipEntries(file: string): string[] {
  return execFileSync("unzip", ["-Z1", file], { encoding: "utf8" })
    .split("\n")
    .filter((name) => name && !name.endsWith("/"))
    .sort();
}

const trashRow = (page: Page, name: string) =>
  page.getByTestId("trash-row").filter({ has: page.getByText(name, { exact: true }) });

test("Recently deleted: lists who deleted what and when, restores one, deletes forever after confirming, restores a board", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { context, page, workspaceId } = await newOwner(browser, "Tidewater Archive");
  const archive = await createBoard(page, workspaceId, "Old campaign");
  const keep = await uploadAsset(page, workspaceId, "keep-me.jpg", await jpeg(1));
  const drop = await uploadAsset(page, workspaceId, "drop-me.jpg", await jpeg(2));
  const inBoard = await uploadAsset(page, workspaceId, "poster.jpg", await jpeg(3), archive.id);
  await api(page, "DELETE", `/workspaces/${workspaceId}/assets`, { asset_ids: [keep, drop] });
  await api(page, "DELETE", `/workspaces/${workspaceId}/boards/${archive.id}`);

  await page.goto(`/w/${workspaceId}/recently-deleted`);
  await expect(page.getByRole("heading", { name: "Recently deleted" })).toBeVisible();
  const boards = page.getByTestId("trash-boards");
  const assets = page.getByTestId("trash-assets");
  await expect(boards.getByTestId("trash-row")).toHaveCount(1);
  await expect(assets.getByTestId("trash-row")).toHaveCount(3);
  await expect(trashRow(page, "keep-me.jpg")).toContainText("Olivia Owner");
  await expect(trashRow(page, "keep-me.jpg")).toContainText(/just now|minute/);
  await expect(trashRow(page, "keep-me.jpg")).toContainText("30 more days");
  // The asset that went with the board says so.
  await expect(trashRow(page, "poster.jpg")).toContainText("Deleted with the board “Old campaign”");
  await shot(page, "recently-deleted");

  // Restore one from its row.
  await trashRow(page, "keep-me.jpg").getByRole("button", { name: "Restore keep-me.jpg" }).click();
  await expectToast(page, "1 item(s) restored");
  await expect(trashRow(page, "keep-me.jpg")).toHaveCount(0);
  expect(await assetStatus(page, workspaceId, keep)).toBe(200);

  // Delete forever through the selection and the confirmation.
  await trashRow(page, "drop-me.jpg").getByRole("checkbox", { name: "Select drop-me.jpg" }).check();
  await expect(page.getByTestId("trash-bulk-actions")).toContainText("1 selected");
  await page.getByTestId("trash-bulk-actions").getByRole("button", { name: "Delete forever" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete forever" });
  await expect(confirm).toContainText("Are you sure you want to delete “drop-me.jpg” forever?");
  await expect(confirm).toContainText("This cannot be undone: the files are removed.");
  await expect(confirm).not.toContainText("A board takes its sub-boards");
  await settled(confirm);
  await shot(page, "purge-dialog");
  // Cancel first: nothing happens.
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(trashRow(page, "drop-me.jpg")).toHaveCount(1);
  await page.getByTestId("trash-bulk-actions").getByRole("button", { name: "Delete forever" }).click();
  await confirm.getByRole("button", { name: "Delete forever" }).click();
  await expectToast(page, "1 item(s) deleted forever");
  await expect(trashRow(page, "drop-me.jpg")).toHaveCount(0);
  expect(await assetStatus(page, workspaceId, drop)).toBe(404);
  // Gone for good: not in the list after a reload either.
  await page.reload();
  await expect(trashRow(page, "Old campaign")).toHaveCount(1);
  await expect(trashRow(page, "drop-me.jpg")).toHaveCount(0);

  // Restoring the board brings its asset back with it, and the board shows in the tree again.
  await trashRow(page, "Old campaign").getByRole("button", { name: "Restore Old campaign" }).click();
  await expectToast(page, "1 item(s) restored");
  await expect(page.getByTestId("recently-deleted-empty")).toBeVisible();
  await expect(page.getByTestId("recently-deleted-empty")).toContainText("Nothing deleted recently");
  await expect(page.getByTestId("boards-panel").getByRole("treeitem", { name: "Old campaign" })).toBeVisible();
  expect(await assetStatus(page, workspaceId, inBoard)).toBe(200);
  await shot(page, "recently-deleted-empty");
  await context.close();
});

test("a commenter sees Recently deleted without restore or delete controls", async ({ browser }) => {
  const { context, page, workspaceId } = await newOwner(browser, "Read Only Co");
  const id = await uploadAsset(page, workspaceId, "gone.jpg", await jpeg(4));
  await api(page, "DELETE", `/workspaces/${workspaceId}/assets`, { asset_ids: [id] });
  const commenterContext = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 820 } });
  const commenter = await commenterContext.newPage();
  await inviteAndJoin(page, commenter, workspaceId, "COMMENTER");
  await commenter.goto(`/w/${workspaceId}/recently-deleted`);
  await expect(trashRow(commenter, "gone.jpg")).toBeVisible();
  await expect(commenter.getByText("Only admins and editors can restore items or delete them forever.")).toBeVisible();
  await expect(commenter.getByRole("button", { name: /Restore/ })).toHaveCount(0);
  await expect(commenter.getByRole("checkbox")).toHaveCount(0);
  await commenterContext.close();
  await context.close();
});

test("download a board as a zip from the boards panel: nested folders, or flat", async ({ browser }) => {
  test.setTimeout(90_000);
  const { context, page, workspaceId } = await newOwner(browser, "Zip Works");
  const shoot = await createBoard(page, workspaceId, "Shoot");
  const day1 = await createBoard(page, workspaceId, "Day 1", shoot.id);
  await uploadAsset(page, workspaceId, "cover.jpg", await jpeg(5), shoot.id);
  await uploadAsset(page, workspaceId, "harbour.jpg", await jpeg(6), day1.id);
  await uploadAsset(page, workspaceId, "market.jpg", await jpeg(7), day1.id);
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-zip-"));

  await page.goto(`/w/${workspaceId}/b/all`);
  const row = page.getByTestId("boards-panel").getByRole("treeitem", { name: "Shoot", exact: true });
  const openDialog = async () => {
    await row.hover();
    await row.getByRole("button", { name: "Board actions" }).click();
    await page.getByRole("menuitem", { name: "Download…" }).click();
    const dialog = page.getByRole("dialog", { name: "Download board" });
    await expect(dialog).toBeVisible();
    return dialog;
  };

  // Hold the server's answer so the progress panel can be seen at 0 before the zip is handed over.
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route("**/api/v1/workspaces/*/download", async (route) => {
    await held;
    await route.continue();
  });

  let dialog = await openDialog();
  await expect(dialog.getByRole("checkbox", { name: "Include sub-boards" })).toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: /Keep a folder for each board/ })).toBeChecked();
  await settled(dialog);
  await shot(page, "download-board-dialog");
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download" }).click();
  const progress = page.getByTestId("download-progress");
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute("data-progress", "0");
  await expect(progress).toContainText("Shoot");
  await shot(page, "download-progress");
  release();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("Shoot.zip");
  const nested = path.join(dir, "nested.zip");
  await download.saveAs(nested);
  expect(zipEntries(nested)).toEqual(["Day 1/harbour.jpg", "Day 1/market.jpg", "cover.jpg"]);
  // The flag resets 1 s after a zip download: the panel goes.
  await expect(progress).toBeHidden();
  await page.unroute("**/api/v1/workspaces/*/download");

  // Flat: every file in one folder.
  dialog = await openDialog();
  await dialog.getByRole("checkbox", { name: /Keep a folder for each board/ }).uncheck();
  const flatDownload = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download" }).click();
  const flat = path.join(dir, "flat.zip");
  await (await flatDownload).saveAs(flat);
  expect(zipEntries(flat)).toEqual(["cover.jpg", "harbour.jpg", "market.jpg"]);

  // Without sub-boards: only the board's own file.
  dialog = await openDialog();
  await dialog.getByRole("checkbox", { name: "Include sub-boards" }).uncheck();
  const ownDownload = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download" }).click();
  const own = path.join(dir, "own.zip");
  await (await ownDownload).saveAs(own);
  expect(zipEntries(own)).toEqual(["cover.jpg"]);
  await context.close();
});

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

const cards = (page: Page) => page.getByTestId("asset-card");
const card = (page: Page, name: string) => page.getByRole("gridcell", { name, exact: true });
const bulkBar = (page: Page) => page.getByTestId("asset-bulk-bar");
const barButton = (page: Page, name: string) => bulkBar(page).getByRole("button", { name, exact: true });

/** The cards' names in grid order. */
const gridNames = (page: Page) =>
  cards(page).evaluateAll((els) =>
    els
      .map((el) => ({ i: Number(el.getAttribute("data-index")), name: el.getAttribute("aria-label") ?? "" }))
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
  for (const label of ["Tag", "Favourite", "Unfavourite", "Add to board", "Move", "Download", "Delete"]) {
    await expect(barButton(page, label)).toBeVisible();
  }
  // Not in a board: no "Remove from board"; sharing arrives later: no entry at all.
  await expect(barButton(page, "Remove from board")).toHaveCount(0);
  await expect(bulkBar(page).getByRole("button", { name: /share/i })).toHaveCount(0);
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
    "Add to favourites",
    "Add to board…",
    "Move to board…",
    "Download",
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
  await expect(bulkBar(commenter).getByRole("button")).toHaveText(["Favourite", "Unfavourite", "Download", ""]);
  await shot(commenter, "bulk-bar-commenter");
  await barButton(commenter, "Favourite").click();
  await expectToast(commenter, "Added to favourites");
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
  await expect(commenter.getByRole("menu").getByRole("menuitem")).toHaveText(["Remove from favourites", "Download"]);
  await commenterContext.close();
  await context.close();
});
