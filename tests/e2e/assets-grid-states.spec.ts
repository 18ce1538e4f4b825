import { Asset, AssetListAnswer, AssetListBody, type Pagination } from "@hangar/contract";
import { expect, type Route, test } from "@playwright/test";
import { card, cards, fileNames, shot } from "./asset-grid-helpers.ts";
import { baseUrl, signUpWithWorkspace } from "./support.ts";

/**
 * The grid's client behaviour against a faked listing (page.route answers POST /assets), so sizes and
 * failures are exact: paging while scrolling, virtualisation, loading/error/empty states, keyboard.
 */
/**
 * A listing row as the server answers it, for a file with no picture. Typed and parsed with the
 * contract's schema, so a field added, renamed or retyped there fails here instead of drifting.
 */
function fakeAsset(i: number, workspaceId: string): Asset {
  const now = new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString();
  return Asset.parse({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    abilities: { edit: true, delete: true, comment: true, share: true, download: true },
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
    large_url: null,
    fps: null,
    sprite: null,
    placeholder: null,
    directory: null,
    favorite: false,
    open_comment_count: 0,
    field_chips: [],
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
    version_count: 1,
    current_version: { id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, number: 1 },
    newer_version: null,
    duplicate_of: null,
    approval: null,
    rights: {
      license: null,
      cc_variant: null,
      credit: "",
      source: "",
      usage_notes: "",
      territories: [],
      model_release: false,
      property_release: false,
      expires_at: null,
    },
    rights_status: "none",
  } satisfies Asset);
}

/** The listing's request as the web sent it, checked against the contract (defaults filled in). */
const listingBody = (route: Route): AssetListBody => AssetListBody.parse(route.request().postDataJSON());

/** The listing's answer, checked against the contract before the page sees it. */
const listingAnswer = (data: Asset[], pagination: Pagination) => ({
  json: AssetListAnswer.parse({ data, pagination: { ...pagination, next_cursor: null } } satisfies AssetListAnswer),
});

test("paging: page by page as the grid scrolls, only rows near the viewport in the DOM; a filter starts again at page 1 with 20 a page", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "paging", workspaceName: "Deep Archive" });

  // The listing answers from a fake 137-asset workspace (30 of them favourites), page by page.
  const TOTAL = 137;
  const FAVOURITES = 30;
  const asked: AssetListBody[] = [];
  await page.route(`**/api/v1/workspaces/${workspaceId}/assets`, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    const body = listingBody(route);
    asked.push(body);
    const count = body.favorite ? FAVOURITES : TOTAL;
    const start = (body.page - 1) * body.page_size;
    const end = Math.min(start + body.page_size, count);
    const data = Array.from({ length: Math.max(end - start, 0) }, (_, k) => fakeAsset(start + k + 1, workspaceId));
    await route.fulfill(
      listingAnswer(data, {
        page: body.page,
        page_size: body.page_size,
        total_count: count,
        total_pages: Math.ceil(count / body.page_size),
        has_more: end < count,
        count_is_estimate: false,
      }),
    );
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
  await drawer.getByRole("button", { name: /Favourites, review and upload date/ }).click();
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
    const body = listingBody(route);
    if (mode === "hold") await held;
    if (mode === "fail")
      return route.fulfill({ status: 500, json: { detail: "Failed to fetch assets", code: "INTERNAL" } });
    const count = body.search ? 0 : 12;
    const data = Array.from({ length: Math.min(count, body.page_size) }, (_, k) => fakeAsset(k + 1, workspaceId));
    const has_more = body.page_size < count;
    await route.fulfill(
      listingAnswer(body.page === 1 ? data : [], {
        page: body.page,
        page_size: body.page_size,
        total_count: count,
        total_pages: 1,
        has_more: body.page === 1 && has_more,
        count_is_estimate: false,
      }),
    );
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
  const [below = ""] = await fileNames(page.locator('[role="gridcell"]:focus'));
  expect(below).not.toBe("file-002.bin");
  await page.keyboard.press("Space");
  await expect(card(page, below)).toHaveAttribute("aria-selected", "true");
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
