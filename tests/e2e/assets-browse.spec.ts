import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { api, baseUrl, signUpWithWorkspace } from "./support.ts";

/** Screenshots for review go next to the notes. */
const SCREENS = process.env.HANGAR_SCREENS_DIR ?? "/work/notes/screens";
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENS, `assets-browse-${name}.png`), fullPage: false });

/** A JPEG mostly of one colour, with a white disc (so the palette has two clear colours). */
async function jpeg(fill: string, i: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">
    <rect width="640" height="480" fill="${fill}"/>
    <circle cx="${180 + i * 40}" cy="240" r="90" fill="#ffffff"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** Uploads one file through the API (init → PUT to the signed URL → complete); answers its id. */
async function upload(page: Page, workspaceId: string, name: string, bytes: Buffer, type: string) {
  const init = await api<{ asset_id: string; upload_id: string; key: string; direct_url: string }>(
    page,
    "POST",
    `/workspaces/${workspaceId}/assets/upload`,
    { name, size: bytes.length, content_type: type },
  );
  const put = await page.request.put(new URL(init.direct_url, baseUrl()).toString(), {
    data: bytes,
    headers: { "Content-Type": type },
  });
  expect(put.ok(), `PUT ${name}`).toBe(true);
  await api(page, "POST", `/workspaces/${workspaceId}/assets/upload/complete`, {
    upload_id: init.upload_id,
    key: init.key,
    parts: [],
  });
  return init.asset_id;
}

const RED = "#d11f1f";
const BLUE = "#1f4fd1";
const GREEN = "#2f9e44";
const YELLOW = "#f2c94c";

/** Names sort in this order; tags and colours chosen so each filter selects a known subset. */
const FILES = [
  { name: "alpha-red-boat.jpg", fill: RED, tags: ["boat", "harbour"] },
  { name: "bravo-blue-boat.jpg", fill: BLUE, tags: ["boat"] },
  { name: "charlie-red-barn.jpg", fill: RED, tags: ["farm"] },
  { name: "delta-green-field.jpg", fill: GREEN, tags: [] },
  { name: "echo-red-kite.jpg", fill: RED, tags: ["boat"] },
  { name: "foxtrot-data.bin", fill: null, tags: ["boat"] },
  { name: "golf-yellow-sun.jpg", fill: YELLOW, tags: [] },
  { name: "hotel-blue-sky.jpg", fill: BLUE, tags: [] },
] as const;

const cards = (page: Page) => page.getByTestId("asset-card");
const card = (page: Page, name: string) => page.getByRole("gridcell", { name, exact: true });
const names = (page: Page) => cards(page).evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")));

async function expectNames(page: Page, expected: string[]) {
  await expect.poll(() => names(page), { message: `grid shows ${expected.join(", ")}` }).toEqual(expected);
}

async function pickSort(page: Page, label: string) {
  await page.getByRole("combobox", { name: "Sort by" }).click();
  await page.getByRole("option", { name: label, exact: true }).click();
}

async function addTag(input: Locator, tag: string) {
  await input.fill(tag);
  await input.press("Enter");
}

test("browse all assets: search, sort, filter builder with chips in the URL, range selection, preview by address", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "browse", workspaceName: "Saltmarsh Studio" });

  const ids = new Map<string, string>();
  for (const [i, f] of FILES.entries()) {
    const bytes = f.fill ? await jpeg(f.fill, i) : randomBytes(4096);
    ids.set(f.name, await upload(page, workspaceId, f.name, bytes, f.fill ? "image/jpeg" : "application/octet-stream"));
  }
  for (const f of FILES) {
    await expect
      .poll(
        async () =>
          (await api<{ status: string }>(page, "GET", `/workspaces/${workspaceId}/assets/${ids.get(f.name)}`)).status,
        {
          timeout: 60_000,
          message: `${f.name} processed`,
        },
      )
      .toBe("COMPLETED");
    if (f.tags.length) {
      await api(page, "POST", `/workspaces/${workspaceId}/assets/tags`, { asset_ids: [ids.get(f.name)], tags: f.tags });
    }
  }
  const red = await api<{ data: Array<{ name: string }> }>(page, "POST", `/workspaces/${workspaceId}/assets`, {
    colors: { simplified_colors: { includes: ["red"] } },
    page_size: 50,
  });
  expect(red.data.map((a) => a.name).sort(), "the pipeline calls the red images red").toEqual([
    "alpha-red-boat.jpg",
    "charlie-red-barn.jpg",
    "echo-red-kite.jpg",
  ]);

  await page.goto(`/w/${workspaceId}/b/all`);
  // Newest first by default: the last upload leads.
  await expect(cards(page)).toHaveCount(8);
  await expect(cards(page).first()).toHaveAttribute("aria-label", "hotel-blue-sky.jpg");
  await expect(page.getByTestId("asset-count")).toHaveText("8 assets");
  // Pictures load over their thumbhash placeholder; the binary file shows its type icon instead.
  await expect
    .poll(() =>
      cards(page)
        .locator("img")
        .evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length),
    )
    .toBe(7);
  await expect(card(page, "foxtrot-data.bin").locator("img")).toHaveCount(0);
  const placeholders = await cards(page)
    .locator("img")
    .evaluateAll((imgs) => imgs.map((img) => getComputedStyle(img.parentElement!).backgroundImage.slice(0, 26)));
  expect(placeholders).toEqual(Array(7).fill('url("data:image/png;base64'));
  await shot(page, "grid");

  // Sort: name A–Z, then Z–A; the order is in the address.
  await pickSort(page, "Name A–Z");
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await expectNames(
    page,
    FILES.map((f) => f.name),
  );
  await pickSort(page, "Name Z–A");
  await expect(cards(page).first()).toHaveAttribute("aria-label", "hotel-blue-sky.jpg");
  await pickSort(page, "Name A–Z");

  // Search (debounced) narrows to the one barn; clearing it brings everything back.
  const search = page.getByRole("searchbox", { name: "Search assets" });
  await search.fill("barn");
  await expectNames(page, ["charlie-red-barn.jpg"]);
  await expect(page).toHaveURL(/[?&]q=barn(&|$)/);
  await search.fill("");
  await expect(cards(page)).toHaveCount(8);

  // The filter builder: type Image + tag "boat" + colour red.
  await page.getByTestId("open-filters").click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  await expect(drawer).toBeVisible();
  await drawer.getByTestId("filter-type-includes").getByText("Image", { exact: true }).click();
  await addTag(drawer.getByLabel("Has any of these tags", { exact: true }), "boat");
  await drawer.getByRole("button", { name: "Red", exact: true }).click();
  await expect(drawer.getByRole("button", { name: "Red", exact: true })).toHaveAttribute("aria-pressed", "true");
  await shot(page, "filter-builder");
  // The other sections, for review: camera/exposure/location, and an any-of group (left empty: dropped).
  await drawer.getByRole("button", { name: "Camera, exposure and location" }).click();
  await drawer.getByLabel("Exposure time is any of").scrollIntoViewIfNeeded();
  await shot(page, "filter-builder-exif");
  await drawer.getByRole("button", { name: "Match any of (groups)" }).click();
  await drawer.getByRole("button", { name: "Add a group" }).click();
  await drawer.getByRole("button", { name: "Add a group" }).scrollIntoViewIfNeeded();
  await shot(page, "filter-builder-groups");
  await drawer.getByRole("button", { name: "Remove group 1" }).click();
  await drawer.getByTestId("apply-filters").click();
  await expect(drawer).toBeHidden();

  await expectNames(page, ["alpha-red-boat.jpg", "echo-red-kite.jpg"]);
  const chips = page.getByTestId("filter-chip");
  await expect(chips).toHaveText(["Type: Image", "Tag: boat", "Colour: red"]);
  await expect(page.getByTestId("asset-count")).toHaveText("2 assets");
  await shot(page, "filtered");

  // The address holds it all: a reload shows the same view.
  const filteredUrl = page.url();
  expect(new URL(filteredUrl).searchParams.get("f")).toMatch(/^[A-Za-z0-9_-]+$/);
  await page.reload();
  await expectNames(page, ["alpha-red-boat.jpg", "echo-red-kite.jpg"]);
  await expect(chips).toHaveText(["Type: Image", "Tag: boat", "Colour: red"]);

  // Removing the colour chip widens to the boat images; clearing the filters shows all again.
  await page.getByRole("button", { name: "Remove filter Colour: red" }).click();
  await expectNames(page, ["alpha-red-boat.jpg", "bravo-blue-boat.jpg", "echo-red-kite.jpg"]);
  await page.getByRole("button", { name: "Clear filters", exact: true }).click();
  await expect(cards(page)).toHaveCount(8);
  await expect(page).not.toHaveURL(/[?&]f=/);

  // Selection: Ctrl-click anchors at bravo, Shift-click on foxtrot takes the range between (5 cards).
  await card(page, "bravo-blue-boat.jpg").click({ modifiers: ["ControlOrMeta"] });
  await card(page, "foxtrot-data.bin").click({ modifiers: ["Shift"] });
  const selected = page.locator('[data-testid="asset-card"][aria-selected="true"]');
  await expect(selected).toHaveCount(5);
  expect(await selected.evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")))).toEqual([
    "bravo-blue-boat.jpg",
    "charlie-red-barn.jpg",
    "delta-green-field.jpg",
    "echo-red-kite.jpg",
    "foxtrot-data.bin",
  ]);
  await expect(page.getByTestId("bulk-count")).toHaveText("5 selected");
  await expect(card(page, "charlie-red-barn.jpg").getByRole("checkbox")).toBeChecked();
  // In bulk mode a plain click adds to the selection instead of opening.
  await card(page, "hotel-blue-sky.jpg").click();
  await expect(selected).toHaveCount(6);
  await expect(page).toHaveURL(/\/b\/all/);
  await shot(page, "selection");
  // Escape clears it.
  await page.keyboard.press("Escape");
  await expect(selected).toHaveCount(0);
  // Select all takes every loaded card.
  await page.getByRole("button", { name: "Select all" }).click();
  await expect(selected).toHaveCount(8);
  await page.keyboard.press("Escape");
  await expect(selected).toHaveCount(0);

  // Opening: outside bulk mode a click opens the preview; the address changes, the page does not reload.
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    document.querySelector('[data-testid="asset-grid"]')?.setAttribute("data-marker", "kept");
  });
  await card(page, "charlie-red-barn.jpg").click();
  const preview = page.getByRole("dialog", { name: "charlie-red-barn.jpg" });
  await expect(preview).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/a/${ids.get("charlie-red-barn.jpg")}\\?sort=name$`));
  await expect(preview.getByTestId("preview-image")).toHaveJSProperty("complete", true);
  await expect(preview.getByTestId("preview-facts")).toContainText("640 × 480 px");
  await expect(preview.getByTestId("preview-facts")).toContainText("farm");
  await shot(page, "preview");
  // → steps to the next asset in the grid's order, in place.
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("dialog", { name: "delta-green-field.jpg" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/a/${ids.get("delta-green-field.jpg")}\\?sort=name$`));
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/b/all\\?sort=name$`));
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await expect(page.getByTestId("asset-grid")).toHaveAttribute("data-marker", "kept");

  // Keyboard: the focused card opens with Enter.
  await card(page, "golf-yellow-sun.jpg").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "golf-yellow-sun.jpg" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  // A board: only its assets, and its asset addresses carry the board; loading one directly works.
  const board = await api<{ id: string }>(page, "POST", `/workspaces/${workspaceId}/boards`, {
    name: "Harbour day",
    parent_id: null,
  });
  await api(page, "POST", `/workspaces/${workspaceId}/boards/${board.id}/assets`, {
    asset_ids: [ids.get("alpha-red-boat.jpg"), ids.get("echo-red-kite.jpg")],
  });
  await page.goto(`/w/${workspaceId}/b/${board.id}`);
  await expect(page.getByTestId("board-page")).toBeVisible();
  await expect(cards(page)).toHaveCount(2);
  await card(page, "alpha-red-boat.jpg").dblclick();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/b/${board.id}/a/${ids.get("alpha-red-boat.jpg")}$`));
  await expect(page.getByRole("dialog", { name: "alpha-red-boat.jpg" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("dialog", { name: "alpha-red-boat.jpg" })).toBeVisible();
  await expect(page.getByTestId("board-page")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/b/${board.id}$`));
  await expect(cards(page)).toHaveCount(2);

  // A direct link to an asset without a board: the preview over All assets.
  await page.goto(`/w/${workspaceId}/a/${ids.get("foxtrot-data.bin")}`);
  await expect(page.getByRole("dialog", { name: "foxtrot-data.bin" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/b/all$`));
  await expect(cards(page)).toHaveCount(8);
  await context.close();
});

/** A listing row as the server answers it, for a file with no picture (the paging test fakes the listing). */
function fakeAsset(i: number, workspaceId: string) {
  const now = new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    workspace_id: workspaceId,
    name: `file-${String(i).padStart(3, "0")}.bin`,
    description: null,
    file_type: "OTHER",
    file_extension: "bin",
    mime_type: "application/octet-stream",
    size: 1000 + i,
    status: "COMPLETED",
    error: null,
    url: null,
    thumbnail_url: null,
    grid_url: null,
    video_url: null,
    placeholder: null,
    directory: null,
    favorite: false,
    tags: [],
    ai_tags: [],
    ai_tag_details: [],
    boards: [],
    width: null,
    height: null,
    duration: null,
    page_count: null,
    pages: [],
    preview_unavailable: null,
    upload_board_id: null,
    is_temp: false,
    sha256: null,
    exif: null,
    colors: null,
    quality: null,
    date_uploaded: now,
    created_at: now,
    updated_at: now,
  };
}

test("paging: page by page as the grid scrolls, only rows near the viewport in the DOM; a filter starts again at page 1 with 20 a page", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "paging", workspaceName: "Deep Archive" });

  // The listing answers from a fake 137-asset workspace (30 of them favourites), page by page.
  const TOTAL = 137;
  const FAVOURITES = 30;
  const asked: Array<{ page: number; page_size: number; favorite?: boolean }> = [];
  await page.route(`**/api/v1/workspaces/${workspaceId}/assets`, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    const body = route.request().postDataJSON() as { page: number; page_size: number; favorite?: boolean };
    asked.push(body);
    const count = body.favorite ? FAVOURITES : TOTAL;
    const start = (body.page - 1) * body.page_size;
    const end = Math.min(start + body.page_size, count);
    const data = Array.from({ length: Math.max(end - start, 0) }, (_, k) => fakeAsset(start + k + 1, workspaceId));
    await route.fulfill({
      json: {
        data,
        pagination: {
          page: body.page,
          page_size: body.page_size,
          total_count: count,
          total_pages: Math.ceil(count / body.page_size),
          has_more: end < count,
          count_is_estimate: false,
        },
      },
    });
  });

  await page.goto(`/w/${workspaceId}/b/all`);
  await expect(page.getByTestId("asset-count")).toHaveText("137 assets");
  await expect(card(page, "file-001.bin")).toBeVisible();
  expect(asked[0]).toMatchObject({ page: 1, page_size: 10 });

  // Scroll to the end: pages 2, 3, … are asked for in turn until has_more is false.
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, 3000);
        return card(page, "file-137.bin").isVisible();
      },
      { timeout: 30_000, message: "the last asset is reached by scrolling" },
    )
    .toBe(true);
  expect(asked.map((b) => b.page)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
  expect(new Set(asked.map((b) => b.page_size))).toEqual(new Set([10]));
  // Virtualised: the first cards left the DOM, and far fewer cards than loaded are rendered.
  await expect(card(page, "file-001.bin")).toHaveCount(0);
  expect(await cards(page).count()).toBeLessThan(60);
  await shot(page, "grid-scrolled");

  // Shift-click across a page boundary: the range spans pages already loaded.
  await card(page, "file-131.bin").click({ modifiers: ["ControlOrMeta"] });
  await card(page, "file-137.bin").click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("bulk-count")).toHaveText("7 selected");
  await page.keyboard.press("Escape");

  // A filter is a new list: page 1 again, 20 a page (spec 01 §9), and its pages follow as before.
  asked.length = 0;
  await page.getByTestId("open-filters").click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  await drawer.getByRole("button", { name: /Favourites and upload date/ }).click();
  await drawer.getByRole("radiogroup", { name: "Favourites (yours)" }).getByText("Favourites", { exact: true }).click();
  await drawer.getByTestId("apply-filters").click();
  await expect(page.getByTestId("asset-count")).toHaveText("30 assets");
  await expect(page.getByTestId("filter-chip")).toHaveText(["Favourites"]);
  expect(asked[0]).toMatchObject({ page: 1, page_size: 20, favorite: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, 3000);
        return card(page, "file-030.bin").isVisible();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  expect(asked.map((b) => [b.page, b.page_size])).toEqual([
    [1, 20],
    [2, 20],
  ]);
  await context.close();
});

test("grid states: loading placeholders, an error with Retry, nothing matching, keyboard moves and selects", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "states", workspaceName: "Quiet Room" });

  let mode: "hold" | "fail" | "ok" = "hold";
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/api/v1/workspaces/${workspaceId}/assets`, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    const body = route.request().postDataJSON() as { page: number; page_size: number; search?: string };
    if (mode === "hold") await held;
    if (mode === "fail")
      return route.fulfill({ status: 500, json: { detail: "Failed to fetch assets", code: "INTERNAL" } });
    const count = body.search ? 0 : 12;
    const data = Array.from({ length: Math.min(count, body.page_size) }, (_, k) => fakeAsset(k + 1, workspaceId));
    const has_more = body.page_size < count;
    const pagination = {
      page: 1,
      page_size: body.page_size,
      total_count: count,
      total_pages: 1,
      has_more,
      count_is_estimate: false,
    };
    await route.fulfill({
      json: {
        data: body.page === 1 ? data : [],
        pagination: { ...pagination, page: body.page, has_more: body.page === 1 && has_more },
      },
    });
  });

  await page.goto(`/w/${workspaceId}/b/all`);
  await expect(page.getByRole("status", { name: "Loading assets" })).toBeVisible();
  await shot(page, "loading");
  mode = "fail";
  release();
  const alert = page.getByRole("alert").filter({ hasText: "Failed to fetch assets" });
  await expect(alert).toBeVisible();
  await shot(page, "error");
  mode = "ok";
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(cards(page).first()).toBeVisible();

  // Keyboard: arrows move the focus between cards (one card in the tab order), Space toggles, Ctrl-A all.
  await card(page, "file-001.bin").focus();
  await page.keyboard.press("ArrowRight");
  await expect(card(page, "file-002.bin")).toBeFocused();
  await expect(card(page, "file-002.bin")).toHaveAttribute("tabindex", "0");
  await expect(card(page, "file-001.bin")).toHaveAttribute("tabindex", "-1");
  await page.keyboard.press("ArrowDown");
  const below = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
  expect(below).not.toBe("file-002.bin");
  await page.keyboard.press("Space");
  await expect(page.locator(`[role="gridcell"][aria-label="${below}"]`)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ControlOrMeta+a");
  await expect(page.locator('[role="gridcell"][aria-selected="true"]')).toHaveCount(10);
  await page.keyboard.press("Escape");
  await expect(page.locator('[role="gridcell"][aria-selected="true"]')).toHaveCount(0);

  // A search that matches nothing: its own empty state, with a way back.
  await page.getByRole("searchbox", { name: "Search assets" }).fill("zebra");
  await expect(page.getByTestId("assets-no-match")).toBeVisible();
  await shot(page, "no-match");
  await page.getByRole("button", { name: "Clear search and filters" }).click();
  await expect(cards(page)).toHaveCount(10);
  await context.close();
});
