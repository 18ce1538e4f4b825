import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { picturesLoaded } from "./a11y-support.ts";
import { card, cards, fileNames } from "./asset-grid-helpers.ts";
import { expectToast, uploadAsset } from "./assets-support.ts";
import { photoJpeg } from "./media-fixtures.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin, signUpWithWorkspace } from "./support.ts";

/**
 * Similar pictures and duplicates in the web (issue 32): "Find similar" from the viewer and a card's
 * menu opens All assets filtered by `similar_to`; the Duplicates page lists an exact pair and a group
 * resolved by stacking becomes one asset with two versions. A COMMENTER sees the groups, no actions.
 */
const shot = screenshots("similar");

/** A picture nothing like the photo (its pHash ~31 bits away). */
function unrelatedJpeg() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#123"/><stop offset="1" stop-color="#fd4"/></linearGradient></defs>
    <rect width="1200" height="900" fill="url(#g)"/><circle cx="300" cy="650" r="220" fill="#e33"/>
    <rect x="700" y="80" width="120" height="700" fill="#1a6"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

test("Find similar shows the resized copy and not the unrelated picture; the Duplicates page stacks an exact pair", async ({
  browser,
}) => {
  // Four pictures uploaded and processed first: minutes on a busy machine.
  test.setTimeout(420_000);
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const { workspaceId: ws } = await signUpWithWorkspace(page, { prefix: "similar", workspaceName: "Lookalikes" });
  const photo = await photoJpeg(1600, 1000);
  const small = await sharp(photo).resize(800, 500).jpeg({ quality: 70 }).toBuffer();
  // Through the API: the upload dialog would offer "new version" for the identical file (versions.spec).
  const photoId = await uploadAsset(page, ws, "storefront.jpg", photo);
  await uploadAsset(page, ws, "storefront-small.jpg", small);
  await uploadAsset(page, ws, "harbour.jpg", await unrelatedJpeg());
  const copyId = await uploadAsset(page, ws, "storefront-copy.jpg", photo);

  // The viewer's "Find similar": All assets filtered to what looks like the photo.
  await page.goto(`/w/${ws}/a/${photoId}`);
  await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true", { timeout: 60_000 });
  await page.getByRole("button", { name: "Find similar" }).click();
  await expect(page).toHaveURL(/\/b\/all\?f=/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const banner = page.getByTestId("similar-banner");
  await expect(banner.getByTestId("similar-title")).toHaveText("Similar to storefront.jpg");
  await expect(card(page, "storefront-small.jpg")).toBeVisible();
  await expect(card(page, "storefront-copy.jpg")).toBeVisible();
  await expect(cards(page)).toHaveCount(2);
  await expect(card(page, "harbour.jpg")).toHaveCount(0);
  await expect(card(page, "storefront.jpg")).toHaveCount(0);
  // Nearest first, as GET …/similar answers (distance, then id), until another order is chosen.
  const sort = page.getByRole("combobox", { name: "Sort by" });
  await expect(sort).toHaveValue("Most similar first");
  const nearest = await api<{ data: Array<{ asset: { name: string } }> }>(
    page,
    "GET",
    `/workspaces/${ws}/assets/${photoId}/similar`,
  );
  await expect.poll(() => fileNames(cards(page))).toEqual(nearest.data.map((d) => d.asset.name));
  await shot(page, "find-similar");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cards(page)).toHaveCount(2);
  await picturesLoaded(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "find-similar-phone");
  await page.setViewportSize({ width: 1440, height: 900 });

  // The closest distance from the slider: the byte-identical copy is still listed; a reload keeps it.
  const slider = banner.getByRole("slider", { name: "Similarity distance" });
  await slider.focus();
  await page.keyboard.press("Home");
  await expect(banner).toContainText("within 0 of 11");
  await expect(page).toHaveURL(/f=/);
  await page.reload();
  await expect(slider).toHaveAttribute("aria-valuenow", "0");
  await expect(card(page, "storefront-copy.jpg")).toBeVisible();
  await expect(card(page, "harbour.jpg")).toHaveCount(0);

  // Cleared: every asset again.
  await banner.getByRole("button", { name: "Clear similar filter" }).click();
  await expect(page.getByTestId("similar-banner")).toHaveCount(0);
  await expect(cards(page)).toHaveCount(4);
  await expect(sort).toHaveValue("Newest uploaded");

  // The card menu's "Find similar" on the unrelated picture: nothing alike, said so.
  // The grid settles after the filter is cleared (its cards re-render): the menu is opened until it stays open.
  const findSimilar = page.getByRole("menuitem", { name: "Find similar" });
  await expect(async () => {
    if (!(await findSimilar.isVisible())) await card(page, "harbour.jpg").getByTestId("asset-card-menu").click();
    await expect(findSimilar).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await findSimilar.click();
  await expect(page.getByTestId("similar-title")).toHaveText("Similar to harbour.jpg");
  await expect(page.getByTestId("similar-empty")).toContainText("Nothing looks alike");

  // The Duplicates page, from the workspace navigation: the exact pair, the near group of three.
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Duplicates" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Duplicates" })).toBeVisible();
  const groups = page.getByTestId("duplicate-group");
  const exact = groups.filter({ hasText: "Exact duplicates" });
  await expect(exact).toHaveCount(1);
  await expect(exact.getByTestId("duplicate-member")).toHaveCount(2);
  await expect(exact).toContainText("storefront.jpg");
  await expect(exact).toContainText("storefront-copy.jpg");
  await expect(groups.filter({ hasText: "Look alike" })).toContainText("storefront-small.jpg");
  await expect(page.getByText("harbour.jpg")).toHaveCount(0);
  await picturesLoaded(page);
  await shot(page, "duplicates");

  // A COMMENTER sees the groups, not the actions.
  const commenterContext = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 390, height: 844 } });
  const commenter = await commenterContext.newPage();
  await inviteAndJoin(page, commenter, ws, "COMMENTER");
  await commenter.goto(`/w/${ws}/duplicates`);
  await expect(commenter.getByTestId("duplicate-group").first()).toBeVisible({ timeout: 60_000 });
  await expect(commenter.getByTestId("duplicate-stack")).toHaveCount(0);
  await expect(commenter.getByTestId("duplicate-keep")).toHaveCount(0);
  await expect(commenter.getByText("Only admins and editors can resolve duplicates.")).toBeVisible();
  await commenterContext.close();

  // At 390 px (the owner's session in a phone-sized browser): nothing wider than the screen.
  const phoneContext = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 390, height: 844 },
    storageState: await context.storageState(),
  });
  const phone = await phoneContext.newPage();
  await phone.goto(`/w/${ws}/duplicates`);
  await expect(phone.getByTestId("duplicate-stack").first()).toBeVisible({ timeout: 60_000 });
  await picturesLoaded(phone);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(phone, "duplicates-phone");
  await phoneContext.close();

  // Stacked: one asset with two versions, the other gone from the workspace's assets.
  await exact.getByRole("radio", { name: "Keep storefront.jpg" }).check();
  await expect(exact.getByTestId("duplicate-freed")).toContainText("Keeping storefront.jpg frees");
  await exact.getByTestId("duplicate-stack").click();
  await expectToast(page, "2 assets stacked as versions of storefront.jpg");
  await expect(groups.filter({ hasText: "Exact duplicates" })).toHaveCount(0);
  const kept = await api<{ version_count: number }>(page, "GET", `/workspaces/${ws}/assets/${photoId}`);
  expect(kept.version_count).toBe(2);
  const gone = await page.request.get(`${baseUrl()}/api/v1/workspaces/${ws}/assets/${copyId}`);
  expect(gone.status()).toBe(404);

  // The look-alike pair: keep the photo and delete the small copy, then Undo brings it back.
  const near = groups.filter({ hasText: "Look alike" });
  await expect(near.getByTestId("duplicate-member")).toHaveCount(2);
  await near.getByRole("radio", { name: "Keep storefront.jpg" }).check();
  await near.getByTestId("duplicate-keep").click();
  await expect(near).toHaveCount(0);
  await page.getByRole("button", { name: "Undo" }).click();
  await expectToast(page, "Asset restored");
  await expect(near.getByTestId("duplicate-member")).toHaveCount(2);
  // Dismissed: gone, and still gone after a reload (remembered).
  await near.getByTestId("duplicate-dismiss").click();
  await expect(near).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("duplicates-empty")).toContainText("No duplicates found");
  await context.close();
});
