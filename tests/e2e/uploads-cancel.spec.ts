// Stopping uploads: one file, or everything still being sent (folders included); retried after.
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  boardTree,
  closeButton,
  dialog,
  dropFromDisk,
  gate,
  item,
  makeShootFolder,
  newUser,
  shot,
  show,
} from "./upload-support.ts";

test("Cancel all stops a folder and a loose file mid-upload; nothing of them is kept", async ({ browser }) => {
  const { page, workspaceId } = await newUser(browser);
  await page.goto(`/w/${workspaceId}/b/all`);
  await page.getByRole("button", { name: "Upload", exact: true }).click();

  // The folder's request and the file's parts are held on the way out: both are mid-upload.
  const held = gate();
  let released = false;
  for (const pattern of ["**/api/v1/workspaces/*/upload-folder", "**/api/v1/uploads/*/parts/*"]) {
    await page.route(pattern, async (route) => {
      if (!released) await held.opened;
      await route.continue().catch(() => {}); // an aborted request has nobody to answer
    });
  }
  const folderName = `Cancelled-${Date.now().toString(36)}`;
  await dropFromDisk(page, dialog(page).getByTestId("upload-drop-zone"), [await makeShootFolder(folderName)]);
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-cancel-all-"));
  writeFileSync(path.join(dir, "reel.bin"), randomBytes(9 * 1024 * 1024));
  await dialog(page).getByTestId("upload-files-input").setInputFiles(path.join(dir, "reel.bin"));
  await expect(dialog(page).locator('[data-testid="upload-item"][data-status="uploading"]')).toHaveCount(7);
  await expect(closeButton(page)).toBeDisabled();
  await shot(page, "dialog-cancel-all");

  await dialog(page).getByRole("button", { name: "Cancel all", exact: true }).click();
  await expect(dialog(page).locator('[data-testid="upload-item"][data-status="error"]')).toHaveCount(7);
  await expect(item(page, "harbour.jpg").getByTestId("upload-item-error")).toHaveText("Upload cancelled");
  await expect(item(page, "reel.bin").getByTestId("upload-item-error")).toHaveText("Upload cancelled");
  await expect(dialog(page).getByTestId("upload-summary")).toHaveText("0 of 7 uploaded · 7 failed");
  await expect(dialog(page).getByRole("button", { name: "Cancel all", exact: true })).toHaveCount(0);
  await expect(closeButton(page)).toBeEnabled();
  await shot(page, "dialog-cancelled-all");
  released = true;
  held.open();

  // No asset and no board came of them.
  await closeButton(page).click();
  await expect(page.getByText("No assets yet", { exact: true })).toBeVisible();
  expect(show(await boardTree(page, workspaceId))).toBe("");
  // A cancelled folder file can be sent again on its own.
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await item(page, "harbour.jpg").getByRole("button", { name: "Retry harbour.jpg" }).click();
  await expect(item(page, "harbour.jpg")).toHaveAttribute("data-status", /processing|COMPLETED/, { timeout: 30_000 });
});

test("an upload in progress can be cancelled, then retried", async ({ browser }) => {
  const { page, workspaceId } = await newUser(browser);
  await page.goto(`/w/${workspaceId}/b/all`);
  await page.getByRole("button", { name: "Upload", exact: true }).click();

  // Parts are held on the way out, so the item is still uploading when it is cancelled.
  const held = gate();
  let released = false;
  await page.route("**/api/v1/uploads/*/parts/*", async (route) => {
    if (!released) await held.opened;
    await route.continue().catch(() => {}); // an aborted request has nobody to answer
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-cancel-"));
  const file = path.join(dir, "rushes.bin");
  writeFileSync(file, randomBytes(9 * 1024 * 1024));
  await dialog(page).getByTestId("upload-files-input").setInputFiles(file);
  await expect(item(page, "rushes.bin")).toHaveAttribute("data-status", "uploading");
  await item(page, "rushes.bin").hover();
  await shot(page, "dialog-cancel");
  // The server is told: the asset its start made goes at once.
  const givenUp = page.waitForResponse((r) => r.url().endsWith("/assets/upload/abort"));
  await item(page, "rushes.bin").getByRole("button", { name: "Cancel rushes.bin" }).click();
  expect((await givenUp).status()).toBe(200);
  await expect(item(page, "rushes.bin")).toHaveAttribute("data-status", "error");
  await expect(item(page, "rushes.bin").getByTestId("upload-item-error")).toHaveText("Upload cancelled");
  released = true;
  held.open();

  // Retried, it goes through from the start.
  await item(page, "rushes.bin").getByRole("button", { name: "Retry rushes.bin" }).click();
  await expect(item(page, "rushes.bin")).toHaveAttribute("data-status", /processing|COMPLETED/, { timeout: 30_000 });
  await expect(item(page, "rushes.bin")).toHaveAttribute("data-status", "COMPLETED", { timeout: 30_000 });
  // Only the retried upload became an asset.
  await closeButton(page).click();
  await expect(page.getByTestId("asset-card")).toHaveCount(1);
});
