import { type Browser, expect, test } from "@playwright/test";
import { expectToast, newOwner, settled, uploadAsset } from "./assets-support.ts";
import { clipMp4, photoJpeg } from "./media-fixtures.ts";
import { screenshots } from "./screenshots.ts";
import { api } from "./support.ts";

/**
 * Watermarks (issue 33): an ADMIN sets a text watermark in the share dialog; a visitor of the link
 * sees the watermarked preview (desktop and phone) and the video once its watermarked copy is made.
 */
const shot = screenshots("watermarks");

let owner: Awaited<ReturnType<typeof newOwner>>;
let boardId = "";
let photoId = "";

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(180_000);
  owner = await newOwner(browser, "Brand studio");
  const ws = owner.workspaceId;
  boardId = (await api<{ id: string }>(owner.page, "POST", `/workspaces/${ws}/boards`, { name: "Press kit" })).id;
  const ids = [
    await uploadAsset(owner.page, ws, "harbour.jpg", await photoJpeg(2400, 1500, 200), boardId),
    await uploadAsset(owner.page, ws, "teaser.mp4", clipMp4(3), boardId, "video/mp4"),
  ];
  photoId = ids[0]!;
  for (const id of ids)
    await expect
      .poll(async () => (await api<{ status: string }>(owner.page, "GET", `/workspaces/${ws}/assets/${id}`)).status, {
        timeout: 90_000,
      })
      .toBe("COMPLETED");
});
test.afterAll(async () => {
  await owner?.context.close();
});

test("a watermark set in the share dialog is on what the visitor sees, never on the member's view", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { page } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${owner.workspaceId}/b/${boardId}`);
  await page.getByTestId("board-share").click();
  const dialog = page.getByRole("dialog", { name: "Share Board" });
  await expect(page.getByTestId("share-dialog")).toBeVisible();
  await settled(dialog);
  await page.getByTestId("watermark-heading").click();
  await page.getByRole("switch", { name: "Watermark what visitors see" }).check();
  await page.getByTestId("watermark-text").fill("CONFIDENTIAL · {visitor} · {date}");
  await page.getByRole("combobox", { name: "Position" }).click();
  await page.getByRole("option", { name: "Centre" }).click();
  await expect(page.getByTestId("watermark-preview")).toHaveAttribute("aria-label", /CONFIDENTIAL · ada@example.com/);
  await page.getByTestId("watermark-save").click();
  await expectToast(page, "Watermark saved");
  await shot(dialog, "dialog");
  const url = await page.getByTestId("share-url").inputValue();

  // The visitor: every picture of the board comes watermarked.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const visitor = await context.newPage();
  await visitor.goto(url);
  await expect(visitor.getByTestId("shared-card")).toHaveCount(2);
  const sources = () =>
    visitor.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>("[data-testid=shared-card] img"))
        .filter((i) => i.complete && i.naturalWidth > 0)
        .map((i) => i.src),
    );
  await expect.poll(async () => (await sources()).length, { timeout: 30_000 }).toBe(2);
  for (const src of await sources()) expect(src).toContain("/wm/");
  await shot(visitor, "board");
  await visitor.getByTestId("shared-card").filter({ hasText: "harbour.jpg" }).click();
  const viewer = visitor.getByTestId("asset-viewer");
  await expect(viewer).toBeVisible();
  const picture = viewer.locator("img[src*='/wm/']").first();
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
  await shot(visitor, "viewer");

  // The video: the watermarked poster and "Preparing…" until its copy is made, then the player.
  await visitor.keyboard.press("Escape");
  await visitor.getByTestId("shared-card").filter({ hasText: "teaser.mp4" }).click();
  const video = viewer.locator("video");
  await expect(video.or(visitor.getByTestId("watermarked-video-preparing"))).toBeVisible();
  if (await visitor.getByTestId("watermarked-video-preparing").isVisible()) await shot(visitor, "video-preparing");
  await expect(video).toBeVisible({ timeout: 120_000 });
  expect(await video.getAttribute("src")).toContain("/wm/");
  await shot(visitor, "video");

  // On a phone.
  await visitor.setViewportSize({ width: 390, height: 844 });
  await visitor.keyboard.press("Escape");
  await visitor.getByTestId("shared-card").filter({ hasText: "harbour.jpg" }).click();
  await expect(viewer.locator("img[src*='/wm/']").first()).toBeVisible();
  await shot(visitor, "viewer-phone");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(dialog, "dialog-phone");
  await context.close();

  // The member's own view: plain pictures.
  await page.keyboard.press("Escape");
  const mine = await api<{ thumbnail_url: string }>(page, "GET", `/workspaces/${owner.workspaceId}/assets/${photoId}`);
  expect(mine.thumbnail_url).not.toContain("/wm/");
});
