import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  assetStatus,
  createBoard,
  expectToast,
  jpeg,
  newOwner,
  settled,
  shot,
  trashRow,
  uploadAsset,
  zipEntries,
} from "./assets-support.ts";
import { api, baseUrl, boardMenu, inviteAndJoin } from "./support.ts";

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
    await boardMenu(page, row, "Download…");
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

  // The board page has the same download as a button (for every role, commenters included).
  await page.goto(`/w/${workspaceId}/b/${day1.id}`);
  await page.getByTestId("board-download").click();
  dialog = page.getByRole("dialog", { name: "Download board" });
  await settled(dialog);
  await shot(page, "board-page-download");
  const pageDownload = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download" }).click();
  const day = path.join(dir, "day1.zip");
  await (await pageDownload).saveAs(day);
  expect(zipEntries(day)).toEqual(["harbour.jpg", "market.jpg"]);
  await context.close();
});
