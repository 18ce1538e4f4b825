import { randomBytes } from "node:crypto";
import { expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { card, cardName, cards, fileNames, shot } from "./asset-grid-helpers.ts";
import { expectPlaceholderColours } from "./assets-support.ts";
import { api, baseUrl, signUpWithWorkspace } from "./support.ts";

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

const names = (page: Page) => fileNames(cards(page));

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
  await expect(cards(page).first()).toHaveAccessibleName(cardName("hotel-blue-sky.jpg"));
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
  await expectPlaceholderColours(cards(page), 7);
  await shot(page, "grid");

  // Sort: name A–Z, then Z–A; the order is in the address.
  await pickSort(page, "Name A–Z");
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await expectNames(
    page,
    FILES.map((f) => f.name),
  );
  await pickSort(page, "Name Z–A");
  await expect(cards(page).first()).toHaveAccessibleName(cardName("hotel-blue-sky.jpg"));
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

  // Cards show their tags (issue #13).
  await expect(card(page, "charlie-red-barn.jpg").getByTestId("card-tag")).toHaveText(["farm"]);

  // Selection: Ctrl-click anchors at bravo, Shift-click on foxtrot takes the range between (5 cards).
  await card(page, "bravo-blue-boat.jpg").click({ modifiers: ["ControlOrMeta"] });
  await card(page, "foxtrot-data.bin").click({ modifiers: ["Shift"] });
  const selected = page.locator('[data-testid="asset-card"][aria-selected="true"]');
  await expect(selected).toHaveCount(5);
  expect(await fileNames(selected)).toEqual([
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
  // Opening selects nothing: no bulk bar behind the viewer (issue #13).
  await expect(selected).toHaveCount(0);
  await expect(page.getByTestId("bulk-count")).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/a/${ids.get("charlie-red-barn.jpg")}\\?sort=name$`));
  await expect(preview.getByTestId("viewer-image")).toHaveJSProperty("complete", true);
  // The viewer's details tab (spec 02 §2) took over the old preview's facts.
  await preview.getByTestId("viewer-tab-details").click();
  await expect(preview.getByTestId("details-panel")).toContainText("640 × 480");
  await expect(preview.getByTestId("details-panel")).toContainText("farm");
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

  // Keyboard: the focused card opens with Enter. A selection made before is cleared when the viewer
  // closes (spec 02 §4).
  await card(page, "hotel-blue-sky.jpg").click({ modifiers: ["ControlOrMeta"] });
  await expect(selected).toHaveCount(1);
  await card(page, "golf-yellow-sun.jpg").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "golf-yellow-sun.jpg" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(selected).toHaveCount(0);

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

  // A direct link to an asset without a board is a page; it closes to the workspace home (spec 02 §2).
  await page.goto(`/w/${workspaceId}/a/${ids.get("foxtrot-data.bin")}`);
  await expect(page.getByRole("dialog", { name: "foxtrot-data.bin" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}$`));
  await page.goto(`/w/${workspaceId}/b/all`);
  await expect(cards(page)).toHaveCount(8);
  await context.close();
});
