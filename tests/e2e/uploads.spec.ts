import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Asset } from "@hangar/contract";
import { expect, type Route, test } from "@playwright/test";
import { card } from "./asset-grid-helpers.ts";
import { expectPlaceholderColours } from "./assets-support.ts";
import { screenshot } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin } from "./support.ts";
import {
  type BoardJson,
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
  writeImage,
} from "./upload-support.ts";

test("a dropped folder uploads with progress, becomes boards, processes, and shows on All assets", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { page, workspaceId } = await newUser(browser);
  const folderName = `Shoot-${Date.now().toString(36)}`;
  const folder = await makeShootFolder(folderName);

  // Hold the folder request until the dialog has been seen mid-upload.
  const sending = gate();
  await page.route("**/api/v1/workspaces/*/upload-folder", async (route) => {
    await sending.opened;
    await route.continue();
  });
  // Keep the assets "processing" until the header indicator has been seen with the dialog closed.
  let holdProcessing = true;
  await page.route(/\/api\/v1\/workspaces\/[^/]+\/assets\/[0-9a-f-]{36}$/, async (route: Route) => {
    if (route.request().method() !== "GET") return route.fallback();
    const response = await route.fetch();
    // The server's own answer, checked against the contract; only its status is changed.
    const json = Asset.parse(await response.json());
    if (holdProcessing) json.status = "processing";
    await route.fulfill({ response, json });
  });

  await page.goto(`/w/${workspaceId}/b/all`);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByTestId("upload-target")).toHaveText("Uploading to All assets");
  await expect(dialog(page).getByText("Drop files or folders here", { exact: true })).toBeVisible();
  await shot(page, "dialog-empty");

  await dropFromDisk(page, dialog(page).getByTestId("upload-drop-zone"), [folder], async () => {
    await expect(dialog(page).getByText("Drop to upload to All assets")).toBeVisible();
    await shot(page, "dialog-dragover");
  });
  await expect(dialog(page).getByTestId("upload-item")).toHaveCount(6);
  for (const name of ["cover.jpg", "harbour.jpg", "market.jpg", "ferry.jpg", "dunes.jpg", "pier.jpg"]) {
    await expect(item(page, name)).toHaveAttribute("data-status", "uploading");
  }
  await expect(item(page, "harbour.jpg")).toContainText(`${folderName}/day1`);
  await expect(item(page, "harbour.jpg").getByRole("progressbar")).toHaveAttribute("aria-valuenow", "0");
  // Nothing can close the dialog while files are on their way, and the button says why.
  await expect(closeButton(page)).toBeDisabled();
  await closeButton(page).hover();
  await expect(page.getByRole("tooltip")).toContainText("still uploading");
  await shot(page, "dialog-uploading");
  await page.keyboard.press("Escape");
  await expect(dialog(page)).toBeVisible();

  sending.open();
  await expect(dialog(page).locator('[data-testid="upload-item"][data-status="processing"]')).toHaveCount(6);
  await expect(dialog(page).getByTestId("upload-summary")).toHaveText("0 of 6 uploaded · 6 processing");
  await expect(closeButton(page)).toBeEnabled();
  await shot(page, "dialog-processing");

  // The sub-folders are boards now, under a board named after the folder, and the panel shows them.
  await expect.poll(async () => show(await boardTree(page, workspaceId))).toBe(`${folderName}(day1,day2)`);
  await expect(page.getByTestId("boards-panel").getByRole("treeitem", { name: folderName })).toBeVisible();

  // Closed while processing: the header keeps count, and polling carries on.
  await closeButton(page).click();
  await expect(dialog(page)).toBeHidden();
  const indicator = page.getByTestId("upload-status-indicator");
  await expect(indicator).toHaveText("Processing 6…");
  await screenshot(page.locator("header"), "upload-header-processing");
  holdProcessing = false;
  await expect(indicator).toBeHidden({ timeout: 30_000 });

  // All assets shows them (the listing is refetched as they complete), each with its real thumbnail.
  const cards = page.getByTestId("asset-card");
  await expect(cards).toHaveCount(6);
  await expect(page.getByTestId("all-assets-empty")).toBeHidden();
  await expect
    .poll(() =>
      cards
        .locator("img")
        .evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length),
    )
    .toBe(6);
  await expectPlaceholderColours(cards, 6);
  await shot(page, "all-assets");

  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog(page).locator('[data-testid="upload-item"][data-status="COMPLETED"]')).toHaveCount(6);
  await expect(dialog(page).getByTestId("upload-summary")).toHaveText("6 of 6 uploaded");
  await expect
    .poll(() =>
      dialog(page)
        .locator("img")
        .evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length),
    )
    .toBe(6);
  await shot(page, "dialog-done");
});

test("into a board: a large file goes multipart with a retried part, a folder input keeps its tree, errors show their message", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { page, workspaceId } = await newUser(browser);
  const board = await api<BoardJson>(page, "POST", `/workspaces/${workspaceId}/boards`, {
    name: "Spring campaign",
    parent_id: null,
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-upload-"));

  const partPuts: string[] = [];
  page.on("request", (request) => {
    const m = /\/api\/v1\/uploads\/[^/]+\/parts\/(\d+)\?/.exec(request.url());
    if (request.method() === "PUT" && m) partPuts.push(m[1]!);
  });

  await page.goto(`/w/${workspaceId}/b/${board.id}`);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog(page).getByTestId("upload-target")).toHaveText("Uploading to Spring campaign");

  // 12 MiB: two parts. Part 1 fails once with a 500 and is retried; part 2 waits for the screenshot;
  // the first complete fails with a 503 and is tried again (the asset stays uploading in between).
  const big = path.join(dir, "master-reel.bin");
  writeFileSync(big, randomBytes(12 * 1024 * 1024));
  let part1Failures = 0;
  await page.route("**/api/v1/uploads/*/parts/1?*", async (route) => {
    if (route.request().method() === "PUT" && part1Failures++ === 0)
      return route.fulfill({ status: 500, json: { detail: "Internal server error.", code: "INTERNAL" } });
    await route.continue();
  });
  const secondPart = gate();
  await page.route("**/api/v1/uploads/*/parts/2?*", async (route) => {
    await secondPart.opened;
    await route.continue();
  });
  let completes = 0;
  await page.route("**/api/v1/workspaces/*/assets/upload/complete", async (route) => {
    if (completes++ === 0)
      return route.fulfill({ status: 503, json: { detail: "Try again shortly.", code: "SERVICE_UNAVAILABLE" } });
    await route.continue();
  });
  await dialog(page).getByTestId("upload-files-input").setInputFiles(big);
  await expect(item(page, "master-reel.bin")).toContainText(/Uploading 6\d%/, { timeout: 20_000 });
  await shot(page, "dialog-multipart");
  secondPart.open();
  await expect(item(page, "master-reel.bin")).toHaveAttribute("data-status", /processing|COMPLETED/, {
    timeout: 20_000,
  });
  expect(partPuts.filter((n) => n === "1").length).toBe(2);
  expect(completes).toBe(2);
  await page.unroute("**/api/v1/workspaces/*/assets/upload/complete");
  expect(new Set(partPuts)).toEqual(new Set(["1", "2"]));

  // A folder through the "Select folder" input: its tree lands under the current board.
  const brand = path.join(dir, "Brand kit");
  await writeImage(path.join(brand, "logos", "mark.jpg"), 1);
  await writeImage(path.join(brand, "logos", "wordmark.jpg"), 2);
  await writeImage(path.join(brand, "palette.jpg"), 3);
  await dialog(page).getByTestId("upload-folder-input").setInputFiles(brand);
  await expect(item(page, "wordmark.jpg")).toContainText("Brand kit/logos");
  await expect.poll(async () => show(await boardTree(page, workspaceId))).toBe("Spring campaign(Brand kit(logos))");

  // The server refuses the announcement: the item says so with the status and the detail.
  const broken = path.join(dir, "broken.jpg");
  await writeImage(broken, 4);
  await page.route("**/api/v1/workspaces/*/assets/upload", (route) =>
    route.fulfill({ status: 500, json: { detail: "Storage is unavailable", code: "INTERNAL" } }),
  );
  // Picked from the keyboard this time: Enter on the drop zone opens the file chooser.
  const chooser = page.waitForEvent("filechooser");
  await dialog(page).getByTestId("upload-drop-zone").press("Enter");
  await (await chooser).setFiles(broken);
  await expect(item(page, "broken.jpg")).toHaveAttribute("data-status", "error");
  await expect(item(page, "broken.jpg")).toContainText("Upload failed: 500 Storage is unavailable");

  // A part answered without an ETag.
  await page.unroute("**/api/v1/workspaces/*/assets/upload");
  await page.route("**/api/v1/uploads/*/parts/1?*", (route) => route.fulfill({ status: 200, body: "{}" }));
  const noEtag = path.join(dir, "no-etag.jpg");
  await writeImage(noEtag, 5);
  await dialog(page).getByTestId("upload-files-input").setInputFiles(noEtag);
  await expect(item(page, "no-etag.jpg")).toContainText("No ETag received from S3");
  await expect(dialog(page).getByTestId("upload-summary")).toContainText("2 failed");
  await shot(page, "dialog-errors");

  // Retry sends it again from the start; this time it goes through.
  await page.unroute("**/api/v1/uploads/*/parts/1?*");
  await item(page, "broken.jpg").getByRole("button", { name: "Retry broken.jpg" }).click();
  await expect(item(page, "broken.jpg")).toHaveAttribute("data-status", "COMPLETED", { timeout: 30_000 });
  await expect(item(page, "master-reel.bin")).toHaveAttribute("data-status", "COMPLETED", { timeout: 30_000 });
  await expect(item(page, "wordmark.jpg")).toHaveAttribute("data-status", "COMPLETED", { timeout: 30_000 });

  // Finished items leave the list one by one or all at once.
  await item(page, "no-etag.jpg").getByRole("button", { name: "Remove no-etag.jpg from the list" }).click();
  await expect(item(page, "no-etag.jpg")).toHaveCount(0);
  await dialog(page).getByRole("button", { name: "Clear finished" }).click();
  await expect(dialog(page).getByTestId("upload-item")).toHaveCount(0);
  await expect(dialog(page).getByText("Drop files or folders here", { exact: true })).toBeVisible();
});

test("commenters get no Upload button", async ({ browser }) => {
  const { page, workspaceId } = await newUser(browser);
  await page.goto(`/w/${workspaceId}`);
  await expect(page.getByRole("button", { name: "Upload", exact: true })).toBeVisible();

  const other = await browser.newContext({ baseURL: baseUrl() });
  const commenter = await other.newPage();
  await inviteAndJoin(page, commenter, workspaceId, "COMMENTER");
  await commenter.goto(`/w/${workspaceId}/b/all`);
  await expect(commenter.getByRole("heading", { name: "All assets" })).toBeVisible();
  await expect(commenter.getByRole("button", { name: "Upload", exact: true })).toHaveCount(0);
});

test("an iPhone photo (HEIC) uploads and shows its thumbnail in the grid", async ({ browser }) => {
  const { page, workspaceId } = await newUser(browser);
  await page.goto(`/w/${workspaceId}/b/all`);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-heic-"));
  const file = path.join(dir, "IMG_4032.HEIC");
  copyFileSync(path.join(import.meta.dirname, "../../apps/server/test/files/quadrants.heic"), file);
  await dialog(page).getByTestId("upload-files-input").setInputFiles(file);
  await expect(item(page, "IMG_4032.HEIC")).toHaveAttribute("data-status", "COMPLETED", { timeout: 60_000 });
  await closeButton(page).click();
  const thumb = card(page, "IMG_4032.HEIC").locator("img");
  await expect(thumb).toHaveJSProperty("complete", true);
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(card(page, "IMG_4032.HEIC")).toContainText("640×480");
  await shot(page, "grid-heic");
});
