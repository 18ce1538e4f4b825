import { type Browser, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { buildPdf } from "../../apps/server/src/ops/pdf-writer.ts";
import { card } from "./asset-grid-helpers.ts";
import { createBoard, expectToast, newOwner, uploadAsset } from "./assets-support.ts";
import { clipMp4 } from "./media-fixtures.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl } from "./support.ts";

/** The asset viewer of spec 02 §2 (issue #14), driven as a reviewer would. */
const shot = screenshots("viewer");
const viewer = (page: Page) => page.getByTestId("asset-viewer");

async function picture(label: string, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1500">
    <rect width="2400" height="1500" fill="hsl(${hue},60%,55%)"/>
    <circle cx="1600" cy="500" r="260" fill="#fff" fill-opacity="0.6"/>
    <text x="120" y="1380" font-size="120" font-family="DejaVu Sans" fill="#fff">${label}</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** `count` pages saying "Page N"; labels i, ii, then 1…, and "A-1"… for the last ten. */
function longPdf(count: number): Buffer {
  const bodies = [
    `<< /Type /Catalog /Pages 2 0 R /PageLabels << /Nums [0 << /S /r >> 2 << /S /D >> ${count - 10} << /S /D /P (A-) >>] >> >>`,
    "",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const kids: string[] = [];
  for (let i = 0; i < count; i++) {
    const content = `BT /F1 48 Tf 72 700 Td (Page ${i + 1}) Tj ET`;
    bodies.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    bodies.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${bodies.length} 0 R >>`,
    );
    kids.push(`${bodies.length} 0 R`);
  }
  bodies[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${count} >>`;
  return buildPdf(bodies, "", "1.7");
}

let owner: Awaited<ReturnType<typeof newOwner>>;
const ids: Record<string, string> = {};
let boardA: { id: string; name: string };
let boardB: { id: string; name: string };

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(240_000);
  owner = await newOwner(browser, "Viewer studio");
  const { page, workspaceId } = owner;
  boardA = await createBoard(page, workspaceId, "Launch");
  boardB = await createBoard(page, workspaceId, "Archive");
  ids.sunrise = await uploadAsset(page, workspaceId, "sunrise.jpg", await picture("sunrise", 20), boardA.id);
  ids.lake = await uploadAsset(page, workspaceId, "lake.jpg", await picture("lake", 200), boardA.id);
  ids.clip = await uploadAsset(page, workspaceId, "teaser.mp4", clipMp4(4, true), undefined, "video/mp4");
  ids.manual = await uploadAsset(page, workspaceId, "manual.pdf", longPdf(117), undefined, "application/pdf");
});
test.afterAll(() => owner?.context.close());

test("opens from the grid as a dialog (Back and Escape close it) and by its address as a page", async () => {
  const { page, workspaceId } = owner;
  await page.goto(`/w/${workspaceId}/b/all`);
  await page.evaluate(() => {
    (window as unknown as { __same: boolean }).__same = true;
  });
  await card(page, "sunrise.jpg").click();
  await expect(viewer(page)).toHaveAttribute("data-mode", "modal");
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/a/${ids.sunrise}$`));
  await expect(page.getByTestId("viewer-title")).toHaveText("sunrise.jpg");
  await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  await shot(page, "image");
  await page.goBack();
  await expect(viewer(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/b/all$`));
  await card(page, "lake.jpg").click();
  await expect(viewer(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(viewer(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/b/all$`));
  expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);

  // By address: a page; its close goes to the workspace home, or to the board it was opened in.
  await page.goto(`/w/${workspaceId}/a/${ids.lake}`);
  await expect(viewer(page)).toHaveAttribute("data-mode", "page");
  await page.getByRole("button", { name: "Close viewer" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}$`));
  await page.goto(`/w/${workspaceId}/b/${boardA.id}/a/${ids.lake}`);
  await expect(page.getByTestId("viewer-board")).toHaveText("Launch");
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/b/${boardA.id}$`));
});

test("image zooms from 1 to 4 in steps of 1.5 and back, loads the sharp picture, and pans with Ctrl", async () => {
  const { page, workspaceId } = owner;
  await page.goto(`/w/${workspaceId}/a/${ids.sunrise}`);
  await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  const preview = page.getByTestId("image-preview");
  const zoomIn = page.getByRole("button", { name: "Zoom in" });
  const zoomOut = page.getByRole("button", { name: "Zoom out" });
  await expect(zoomOut).toBeDisabled();
  // The library rounds scales to a few decimals: compare to 0.01.
  const scaleOf = async () => Number(await preview.getAttribute("data-scale"));
  for (const scale of [1.5, 2.25, 3.375, 4]) {
    await zoomIn.click();
    await expect.poll(scaleOf).toBeCloseTo(scale, 1);
  }
  await expect(zoomIn).toBeDisabled();
  await expect(page.getByTestId("zoom-level")).toHaveText("400%");
  await expect(page.getByTestId("viewer-image-sharp")).toHaveJSProperty("complete", true);
  await shot(page, "image-zoomed");

  // Pan with Ctrl held: the picture moves; without it, a drag does not pan.
  const content = page.locator(".react-transform-component");
  const before = await content.evaluate((el) => getComputedStyle(el).transform);
  const box = (await preview.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 60, { steps: 5 });
  await page.mouse.up();
  expect(await content.evaluate((el) => getComputedStyle(el).transform)).toBe(before);
  await page.keyboard.down("Control");
  await expect(preview).toHaveAttribute("data-pan-mode", "on");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 60, { steps: 5 });
  await page.mouse.up();
  await page.keyboard.up("Control");
  await expect.poll(() => content.evaluate((el) => getComputedStyle(el).transform)).not.toBe(before);

  for (const scale of [2.667, 1.778, 1.185, 1]) {
    await zoomOut.click();
    await expect.poll(scaleOf).toBeCloseTo(scale, 1);
  }
  await expect(zoomOut).toBeDisabled();
});

test("video plays with our controls: speed, mute, volume, frame steps and a timecode", async () => {
  const { page, workspaceId } = owner;
  await page.goto(`/w/${workspaceId}/a/${ids.clip}`);
  const player = page.getByTestId("video-player");
  await expect(page.getByTestId("video-loading")).toBeHidden();
  const video = page.getByTestId("viewer-video");
  await page.getByRole("button", { name: "Play", exact: true }).click();
  await expect(player).toHaveAttribute("data-playing", "true");
  await page.getByTestId("video-speed").click();
  await page.getByRole("menuitem", { name: "1.5×" }).click();
  await expect(video).toHaveJSProperty("playbackRate", 1.5);
  await page.getByRole("button", { name: "Mute", exact: true }).click();
  await expect(video).toHaveJSProperty("muted", true);
  await page.getByRole("button", { name: "Unmute" }).click();
  await page.getByRole("slider", { name: "Volume" }).focus();
  await page.keyboard.press("ArrowLeft");
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.volume)).toBeCloseTo(0.9, 5);
  await shot(page, "video");
  // Pause (K), then one frame at a time with → and ←.
  await page.getByTestId("viewer-title").click(); // focus off the slider
  await page.keyboard.press("k");
  await expect(player).toHaveAttribute("data-playing", "false");
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 1.02;
  });
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(1.06, 2);
  await expect(page.getByTestId("video-timecode")).toContainText("00:00:01:01");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(0.98, 2);
  await expect(page.getByTestId("video-timecode")).toContainText("00:00:00:24");
});

test("a 117-page PDF: ends disable previous and next, the Pages tab jumps to page 80, labels show", async () => {
  const { page, workspaceId } = owner;
  await page.goto(`/w/${workspaceId}/a/${ids.manual}`);
  await expect(page.getByTestId("page-count")).toContainText("of 117");
  const previous = page.getByRole("button", { name: "Previous page" });
  const next = page.getByRole("button", { name: "Next page" });
  await expect(previous).toBeDisabled();
  await expect(page.getByTestId("page-count")).toContainText("i");
  await next.click();
  await expect(page.getByTestId("page-input")).toHaveValue("2");
  await page.getByTestId("viewer-tab-pages").click();
  const row = page.locator('[data-testid="pages-panel-page"][data-page="80"]');
  await row.scrollIntoViewIfNeeded();
  await row.click();
  await expect(page.getByTestId("page-input")).toHaveValue("80");
  await expect(row).toHaveAttribute("aria-current", "page");
  await expect(row.getByTestId("page-label")).toHaveText("78");
  await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  await shot(page, "pdf-pages");
  await page.getByTestId("page-input").fill("117");
  await page.getByTestId("page-input").press("Enter");
  await expect(next).toBeDisabled();
  await expect(page.getByTestId("page-count")).toContainText("A-10");
});

test("details: the name saves once after typing, reverts when refused; tags add", async () => {
  const { page, workspaceId } = owner;
  await page.goto(`/w/${workspaceId}/a/${ids.lake}`);
  await page.getByTestId("viewer-tab-details").click();
  const puts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "PUT" && r.url().includes(`/assets/${ids.lake}`)) puts.push(r.postData() ?? "");
  });
  const name = page.getByTestId("details-name");
  await name.fill("");
  await name.pressSequentially("lake at dawn.jpg", { delay: 20 });
  // Saved and shown: every save the typing caused has been sent by then (the last one is what the
  // title shows), and the field now matches the saved name, so no other one can follow.
  await expect(page.getByTestId("viewer-title")).toHaveText("lake at dawn.jpg");
  expect(puts).toEqual([JSON.stringify({ name: "lake at dawn.jpg" })]);
  await shot(page, "details");

  // Refused by the server: the field shows the saved name again.
  await page.route(`**/assets/${ids.lake}`, (route) =>
    route.request().method() === "PUT"
      ? route.fulfill({
          status: 422,
          contentType: "application/json",
          body: '{"detail":"Name is too long","code":"INVALID"}',
        })
      : route.fallback(),
  );
  await name.fill("refused name.jpg");
  await expect(name).toHaveValue("lake at dawn.jpg", { timeout: 5000 });
  await page.unroute(`**/assets/${ids.lake}`);

  const tags = page.getByTestId("details-tags");
  await tags.click();
  await page.keyboard.type("hero");
  await page.keyboard.press("Enter");
  await expect
    .poll(
      async () => (await api<{ tags: string[] }>(page, "GET", `/workspaces/${workspaceId}/assets/${ids.lake}`)).tags,
    )
    .toEqual(["hero"]);
});

test("boards tab: current view, remove, add, and switching views", async () => {
  const { page, workspaceId } = owner;
  await page.goto(`/w/${workspaceId}/b/${boardA.id}/a/${ids.sunrise}`);
  await page.getByTestId("viewer-tab-boards").click();
  const launch = page.locator(`[data-testid="boards-panel-board"][data-board-id="${boardA.id}"]`);
  await expect(launch).toContainText("Current view");
  await page.getByRole("button", { name: "Board actions for Launch" }).click();
  await page.getByRole("menuitem", { name: "Remove from Board" }).click();
  await expectToast(page, "\u201csunrise.jpg\u201d removed from board".replace(/[\u201c\u201d]/g, '"'));
  await expect(launch).toBeHidden();
  await page.getByTestId("boards-panel-add").click();
  const dialog = page.getByRole("dialog", { name: "Add to board" });
  await dialog.getByText("Archive", { exact: true }).click();
  await dialog.getByRole("button", { name: "Add here" }).click();
  await expectToast(page, "Added to board: Archive");
  const archive = page.locator(`[data-testid="boards-panel-board"][data-board-id="${boardB.id}"]`);
  await expect(archive).toBeVisible();
  await shot(page, "boards");
  await archive.getByText("Archive").click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/b/${boardB.id}/a/${ids.sunrise}$`));
  await expect(archive).toContainText("Current view");
  await page.getByTestId("boards-panel-all").click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/a/${ids.sunrise}$`));
  await expect(page.getByTestId("boards-panel-all")).toContainText("Current view");
});

test("a phone: the preview takes the width; the panels open as a sheet below it, the picture above", async ({
  browser,
}) => {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 390, height: 844 },
    storageState: await owner.context.storageState(),
  });
  const page = await context.newPage();
  await page.goto(`/w/${owner.workspaceId}/a/${ids.sunrise}`);
  await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  const box = (await page.getByTestId("image-preview").boundingBox())!;
  expect(box.width).toBeGreaterThan(380);
  await page.getByTestId("viewer-tab-details").click();
  await expect(page.getByTestId("viewer-sheet").getByTestId("details-panel")).toBeVisible();
  // The sheet takes the lower part: the picture shrinks into the space above it, still whole.
  const sheet = (await page.getByTestId("viewer-sheet").boundingBox())!;
  const shrunk = (await page.getByTestId("viewer-image").boundingBox())!;
  expect(shrunk.y + shrunk.height).toBeLessThanOrEqual(sheet.y + 1);
  expect(shrunk.width).toBeGreaterThan(200);
  await shot(page, "phone");
  await context.close();
});

test("measures click to first preview pixel and to the full rendition (p50 over 20 opens)", async () => {
  const { page, workspaceId } = owner;
  await page.goto(`/w/${workspaceId}/b/all`);
  const first: number[] = [];
  const full: number[] = [];
  const names = await Promise.all(
    [ids.sunrise, ids.lake].map(
      async (id) => (await api<{ name: string }>(page, "GET", `/workspaces/${workspaceId}/assets/${id}`)).name,
    ),
  );
  for (let i = 0; i < 20; i++) {
    const name = names[i % 2]!;
    await page.evaluate(() => performance.mark("open"));
    await card(page, name).click();
    await page.waitForSelector('[data-testid="image-preview"]');
    first.push(await page.evaluate(() => performance.now() - performance.getEntriesByName("open").at(-1)!.startTime));
    await page.waitForSelector('[data-testid="viewer-image"][data-loaded="true"]');
    full.push(await page.evaluate(() => performance.now() - performance.getEntriesByName("open").at(-1)!.startTime));
    await page.keyboard.press("Escape");
    await expect(viewer(page)).toBeHidden();
  }
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `viewer open: first preview pixel p50 ${p50(first).toFixed(0)} ms, full rendition p50 ${p50(full).toFixed(0)} ms`,
  );
  expect(first.length).toBe(20);
});
