import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { card } from "./asset-grid-helpers.ts";
import { createBoard, expectToast, settled, toasts, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, signUpWithWorkspace } from "./support.ts";
import { dropFromDisk } from "./upload-support.ts";
import { poster } from "./versions-support.ts";

/** Versions and compare (issue 29), as a designer and a reviewer go through rounds of one poster. */
const shot = screenshots("versions");

let context: BrowserContext;
let page: Page;
let workspaceId: string;
let board: { id: string; name: string };
let posterId: string;
let flyerId: string;
const files: Record<string, string> = {};
const bytes: Record<string, Buffer> = {};

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(240_000);
  context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  ({ workspaceId } = await signUpWithWorkspace(page, { prefix: "versions", workspaceName: "Poster studio" }));
  board = await createBoard(page, workspaceId, "Launch");
  bytes.v1 = await poster(1);
  bytes.v2 = await poster(2);
  const dir = mkdtempSync(path.join(os.tmpdir(), "versions-e2e-"));
  for (const [name, data] of Object.entries(bytes)) {
    files[name] = path.join(dir, `poster-${name}.jpg`);
    writeFileSync(files[name], data);
  }
  posterId = await uploadAsset(page, workspaceId, "poster.jpg", bytes.v1, board.id);
  flyerId = await uploadAsset(
    page,
    workspaceId,
    "flyer.jpg",
    await sharp(await poster(1))
      .resize(1200, 750)
      .jpeg()
      .toBuffer(),
    board.id,
  );
  // Round 1's review: a point on the headline.
  await api(page, "POST", `/workspaces/${workspaceId}/comments`, {
    content_type: "asset",
    object_id: posterId,
    board_id: board.id,
    text: "Headline too low",
    annotation_type: "POINT",
    x: 30,
    y: 55,
  });
});
test.afterAll(() => context?.close());

const viewer = () => page.getByTestId("asset-viewer");
const drawer = () => page.getByTestId("comments-panel");
const versionMenu = () => page.getByTestId("version-menu");
const uploadDialog = () => page.getByRole("dialog", { name: "Upload files" });
const markers = () => page.getByTestId("annotation-marker");
const scaleOf = async (l: Locator) => Number(await l.getAttribute("data-scale"));

async function openPoster(search = "") {
  await page.goto(`/w/${workspaceId}/b/${board.id}/a/${posterId}${search}`);
  await expect(viewer()).toBeVisible();
  await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
}

test("a file dropped on the viewer becomes v2 of the asset, shown once processed", async () => {
  await openPoster();
  await expect(versionMenu()).toHaveText("v1");
  await expect(markers()).toHaveCount(1);
  await dropFromDisk(page, page.getByTestId("image-preview"), [files.v2!], async () => {
    await expect(page.getByTestId("version-drop-overlay")).toContainText("Drop to upload a new version of poster.jpg");
  });
  // The upload dialog opens on it: "v2 of poster.jpg", until it is processed.
  await expect(uploadDialog()).toBeVisible();
  const row = uploadDialog().getByRole("listitem", { name: "poster-v2.jpg" });
  await expect(row.getByTestId("upload-item-detail")).toContainText("v2 of poster.jpg");
  await settled(uploadDialog());
  await shot(page, "upload-dialog-desktop");
  await expect(row).toHaveAttribute("data-status", "COMPLETED", { timeout: 60_000 });
  await uploadDialog().getByRole("button", { name: "Close", exact: true }).click();
  await expect(uploadDialog()).toBeHidden();
  // The viewer now shows v2, the current version: round 1's annotation was on v1.
  await expect(versionMenu()).toHaveText("v2");
  await expect(markers()).toHaveCount(0);
  const v = await api<Array<{ number: number; is_current: boolean }>>(
    page,
    "GET",
    `/workspaces/${workspaceId}/assets/${posterId}/versions`,
  );
  expect(v.map((x) => [x.number, x.is_current])).toEqual([
    [2, true],
    [1, false],
  ]);
});

test("a comment on v2 stays v2's; v1 shows its own annotation, All versions lists both", async () => {
  await openPoster();
  await expect(versionMenu()).toHaveText("v2");
  // An annotation on v2, drawn on the picture.
  const layer = (await page.getByTestId("annotation-layer").boundingBox())!;
  await page.mouse.click(layer.x + layer.width * 0.7, layer.y + layer.height * 0.3);
  await page.getByLabel("Annotation comment").fill("Sun reads better now");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("annotation-popover")).toContainText("Sun reads better now");
  await expect(drawer().getByTestId("comment-thread")).toHaveCount(1);
  await expect(markers()).toHaveCount(1);

  // The version menu: each version with its number, date, uploader and comment count.
  await versionMenu().click();
  const list = page.getByTestId("version-list");
  await expect(list.getByTestId("version-row")).toHaveCount(2);
  await expect(list.locator('[data-version="2"]').getByTestId("version-comments")).toHaveText("1");
  await expect(list.locator('[data-version="1"]').getByTestId("version-comments")).toHaveText("1");
  await expect(list.locator('[data-version="2"]')).toContainText("Current");
  await settled(list);
  await shot(page, "menu-desktop");

  await list.getByRole("button", { name: "Show v1" }).click();
  await expect(page).toHaveURL(/[?&]version=1/);
  await expect(versionMenu()).toHaveText("v1");
  await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  await expect(markers()).toHaveCount(1);
  await markers().first().click();
  await expect(page.getByTestId("annotation-popover")).toContainText("Headline too low");
  await expect(drawer().getByTestId("comment-thread")).toHaveCount(1);
  await expect(drawer()).toContainText("Headline too low");

  // Every version's comments, each with its version; markers stay v1's.
  await page.getByTestId("all-versions-switch").click();
  await expect(drawer().getByTestId("comment-thread")).toHaveCount(2);
  await expect(drawer().getByTestId("comment-version")).toHaveText(["v1", "v2"]);
  await expect(markers()).toHaveCount(1);
  await shot(page, "all-versions-desktop");

  // The address keeps the version: a reload shows v1 again.
  await page.reload();
  await expect(versionMenu()).toHaveText("v1");
  await expect(markers()).toHaveCount(1);
});

test("compare v1 and v2: side by side with one zoom, each with its annotations; overlay and difference", async () => {
  await openPoster("?version=2");
  await versionMenu().click();
  await page.getByTestId("version-compare").click();
  const compare = page.getByTestId("compare-view");
  await expect(compare).toBeVisible();
  await expect(page).toHaveURL(/compare=1/);
  const sides = compare.getByTestId("compare-side");
  await expect(sides.getByTestId("compare-side-label")).toHaveText(["v1", "v2"]);
  const left = sides.nth(0).getByTestId("image-preview");
  const right = sides.nth(1).getByTestId("image-preview");
  await expect(sides.nth(0).getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  await expect(sides.nth(1).getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  // Each side its own version's annotation.
  await expect(sides.nth(0).getByTestId("annotation-marker")).toHaveCount(1);
  await expect(sides.nth(1).getByTestId("annotation-marker")).toHaveCount(1);
  await sides.nth(0).getByTestId("annotation-marker").click();
  await expect(page.getByTestId("annotation-popover")).toContainText("Headline too low");
  await sides.nth(0).getByTestId("annotation-marker").click();
  await shot(page, "compare-side-desktop");

  // Zoom locked: zooming the left side zooms the right the same, and so does a drag's pan.
  await sides.nth(0).getByRole("button", { name: "Zoom in" }).click();
  await sides.nth(0).getByRole("button", { name: "Zoom in" }).click();
  await expect.poll(() => scaleOf(left)).toBeCloseTo(2.25, 1);
  await expect.poll(() => scaleOf(right)).toBeCloseTo(2.25, 1);
  const content = (side: number) => sides.nth(side).locator(".react-transform-component");
  const box = (await left.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 150, box.y + box.height / 2 + 80, { steps: 6 });
  await page.mouse.up();
  const transform = (side: number) => content(side).evaluate((el) => getComputedStyle(el).transform);
  await expect.poll(async () => (await transform(1)) === (await transform(0))).toBe(true);
  await shot(page, "compare-zoomed-desktop");
  await sides.nth(1).getByRole("button", { name: "Reset zoom" }).click();
  await expect.poll(() => scaleOf(left)).toBeCloseTo(1, 2);

  // Overlay: v2 over v1, cut where the slider says.
  await compare.getByTestId("compare-mode").getByText("Overlay").click();
  const top = page.getByTestId("overlay-top");
  await expect(top).toHaveCSS("clip-path", "inset(0px 0px 0px 50%)");
  const slider = page.getByRole("slider", { name: "Overlay position" });
  await slider.focus();
  for (let i = 0; i < 20; i++) await page.keyboard.press("ArrowRight");
  await expect(top).toHaveCSS("clip-path", "inset(0px 0px 0px 70%)");
  await page.keyboard.press("Home");
  await expect(top).toHaveCSS("clip-path", "inset(0px 0px 0px 0%)");
  await page.keyboard.press("End");
  await expect(top).toHaveCSS("clip-path", "inset(0px 0px 0px 100%)");
  await page.keyboard.press("Home");
  for (let i = 0; i < 35; i++) await page.keyboard.press("ArrowRight");
  await shot(page, "compare-overlay-desktop");

  // Difference: v2 blended over v1.
  await compare.getByTestId("compare-mode").getByText("Difference").click();
  await expect(top).toHaveCSS("mix-blend-mode", "difference");
  await expect(page.getByTestId("difference-legend")).toBeVisible();
  await shot(page, "compare-difference-desktop");

  // Escape leaves compare, back to the viewer (on v2).
  await page.keyboard.press("Escape");
  await expect(compare).toBeHidden();
  await expect(viewer()).toBeVisible();
  await expect(page).not.toHaveURL(/compare=/);
  await expect(versionMenu()).toHaveText("v2");
});

test("phone: the version menu, and compare one above the other", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await openPoster("?version=2");
    await versionMenu().click();
    await settled(page.getByTestId("version-list"));
    await shot(page, "menu-phone");
    await page.getByTestId("version-compare").click();
    const sides = page.getByTestId("compare-side");
    await expect(sides).toHaveCount(2);
    await expect(sides.nth(1).getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
    const [a, b] = [(await sides.nth(0).boundingBox())!, (await sides.nth(1).boundingBox())!];
    expect(b.y).toBeGreaterThanOrEqual(a.y + a.height - 1);
    await shot(page, "compare-side-phone");
    await page.getByTestId("compare-mode").getByText("Overlay").click();
    await expect(page.getByTestId("overlay-top")).toBeVisible();
    await shot(page, "compare-overlay-phone");
    await page.getByTestId("compare-mode").getByText("Difference").click();
    await shot(page, "compare-difference-phone");
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

test("the same file uploaded again is offered as a new version of the asset it matches", async () => {
  await page.goto(`/w/${workspaceId}/b/${board.id}`);
  await expect(card(page, "poster.jpg").getByTestId("card-version")).toHaveText("v2");
  await page.getByTestId("upload-button").click();
  await uploadDialog().getByTestId("upload-files-input").setInputFiles(files.v1!);
  const prompt = uploadDialog().getByTestId("duplicate-prompt");
  await expect(prompt.getByTestId("duplicate-text")).toHaveText("This file is already here: poster.jpg in Launch");
  await expect(prompt.getByRole("button", { name: "Keep both" })).toBeVisible();
  await expect(prompt.getByRole("button", { name: "Skip" })).toBeVisible();
  await settled(uploadDialog());
  await shot(page, "duplicate-desktop");
  await prompt.getByRole("button", { name: "Add as new version of poster.jpg" }).click();
  await expect(prompt).toBeHidden();
  const row = uploadDialog().getByRole("listitem", { name: "poster-v1.jpg" });
  await expect(row.getByTestId("upload-item-detail")).toContainText("v3 of poster.jpg");
  await expect(row).toHaveAttribute("data-status", "COMPLETED", { timeout: 60_000 });
  await uploadDialog().getByRole("button", { name: "Close", exact: true }).click();
  await expect(card(page, "poster.jpg").getByTestId("card-version")).toHaveText("v3");
  // One asset still: no second poster in the board.
  await expect(card(page, "poster-v1.jpg")).toHaveCount(0);
});

test("phone: a duplicate skipped is not uploaded", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto(`/w/${workspaceId}/b/${board.id}`);
    await expect(card(page, "poster.jpg").getByTestId("card-version")).toHaveText("v3");
    await page.getByTestId("upload-button").click();
    await uploadDialog().getByTestId("upload-files-input").setInputFiles(files.v2!);
    const prompt = uploadDialog().getByTestId("duplicate-prompt");
    await expect(prompt.getByTestId("duplicate-text")).toHaveText("This file is already here: poster.jpg in Launch");
    await settled(uploadDialog());
    await shot(page, "duplicate-phone");
    const givenUp = page.waitForResponse((r) => r.url().endsWith("/assets/upload/abort"));
    await prompt.getByRole("button", { name: "Skip" }).click();
    expect((await givenUp).status()).toBe(200); // the start's asset goes at once
    await expect(prompt).toBeHidden();
    await expect(uploadDialog().getByRole("listitem", { name: "poster-v2.jpg" })).toHaveCount(0);
    await uploadDialog().getByRole("button", { name: "Close", exact: true }).click();
    const listed = await api<{ data: Array<{ name: string }> }>(page, "POST", `/workspaces/${workspaceId}/assets`, {
      board_id: board.id,
    });
    expect(listed.data.map((a) => a.name).sort()).toEqual(["flyer.jpg", "poster.jpg"]);
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

test("a file dropped on a card is its asset's new version; the bulk bar compares two assets and stacks them", async () => {
  await page.goto(`/w/${workspaceId}/b/${board.id}`);
  const flyer = card(page, "flyer.jpg");
  await expect(flyer).toBeVisible();
  await expect(flyer.getByTestId("card-version")).toHaveCount(0);
  await dropFromDisk(page, flyer, [files.v2!], async () => {
    await expect(flyer).toHaveAttribute("data-drop-version", "");
  });
  const row = uploadDialog().getByRole("listitem", { name: "poster-v2.jpg" });
  await expect(row.getByTestId("upload-item-detail")).toContainText("v2 of flyer.jpg");
  await expect(row).toHaveAttribute("data-status", "COMPLETED", { timeout: 60_000 });
  await uploadDialog().getByRole("button", { name: "Close", exact: true }).click();
  await expect(flyer.getByTestId("card-version")).toHaveText("v2");

  // Two assets selected: Compare shows them side by side (overlay: same shape), each as its current version.
  await card(page, "poster.jpg").getByRole("checkbox").check();
  await flyer.getByRole("checkbox").check();
  const bar = page.getByTestId("asset-bulk-bar");
  await bar.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Compare" }).click();
  const compare = page.getByTestId("compare-dialog");
  await expect(compare.getByTestId("compare-side-label")).toHaveText(["poster.jpg", "flyer.jpg"]);
  await expect(compare.getByTestId("viewer-image")).toHaveCount(2);
  await compare.getByTestId("compare-mode").getByText("Difference").click();
  await expect(compare.getByTestId("overlay-top")).toHaveCSS("mix-blend-mode", "difference");
  await page.keyboard.press("Escape");
  await expect(compare).toBeHidden();

  // Before the stack: poster v1–v3, flyer v1–v2.
  const count = async (id: string) =>
    (await api<unknown[]>(page, "GET", `/workspaces/${workspaceId}/assets/${id}/versions`)).length;
  expect([await count(posterId), await count(flyerId)]).toEqual([3, 2]);
  // Stack as versions: flyer (uploaded later) becomes versions of poster, the first uploaded.
  await bar.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Stack as versions" }).click();
  const dialog = page.getByTestId("stack-versions-dialog");
  await expect(dialog.getByLabel("poster.jpg (first uploaded)")).toBeChecked();
  await dialog.getByRole("button", { name: "Stack as versions" }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, "flyer.jpg")).toHaveCount(0);
  const stacked = await api<Array<{ number: number }>>(
    page,
    "GET",
    `/workspaces/${workspaceId}/assets/${posterId}/versions`,
  );
  expect(stacked).toHaveLength(5);
  const gone = await page.request.get(`${baseUrl()}/api/v1/workspaces/${workspaceId}/assets/${flyerId}`);
  expect(gone.status()).toBe(404);
  await expect(card(page, "poster.jpg").getByTestId("card-version")).toHaveText(/^v\d$/);
});

test("the version menu makes an older version current, deletes one (Undo brings it back) and detaches one", async () => {
  type V = { id: string; number: number; name: string; is_current: boolean };
  const list = () => api<V[]>(page, "GET", `/workspaces/${workspaceId}/assets/${posterId}/versions`);
  const before = await list();
  const current = before.find((v) => v.is_current)!;
  const oldest = before.at(-1)!;
  await openPoster();
  await expect(versionMenu()).toHaveText(`v${current.number}`);
  const rows = page.getByTestId("version-list");
  const actions = async (n: number, item: string) => {
    await versionMenu().click();
    await rows.getByRole("button", { name: `Actions for v${n}` }).click();
    await rows.getByRole("menuitem", { name: item }).click();
  };

  await actions(oldest.number, "Make current");
  await expectToast(page, `v${oldest.number} is now the current version`);
  await expect(versionMenu()).toHaveText(`v${oldest.number}`);
  expect((await list()).find((v) => v.is_current)?.id).toBe(oldest.id);

  await actions(current.number, "Delete");
  await page
    .getByRole("dialog", { name: `Delete v${current.number}?` })
    .getByRole("button", { name: "Delete" })
    .click();
  await expectToast(page, `v${current.number} moved to Recently deleted`);
  expect((await list()).map((v) => v.id)).not.toContain(current.id);
  await toasts(page).getByRole("button", { name: "Undo" }).last().click();
  await expectToast(page, `v${current.number} restored`);
  await expect.poll(async () => (await list()).map((v) => v.id)).toContain(current.id);

  await actions(current.number, "Detach");
  await expectToast(page, `v${current.number} is now an asset of its own: ${current.name}`);
  expect((await list()).map((v) => v.id)).not.toContain(current.id);
  await page.keyboard.press("Escape");
  await expect(card(page, current.name)).toBeVisible();
});
