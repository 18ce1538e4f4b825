import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { card } from "./asset-grid-helpers.ts";
import { createBoard, settled, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { baseUrl, signUpWithWorkspace } from "./support.ts";
import { poster, uploadVersion } from "./versions-support.ts";

/** The filter builder's "Versions" (issue 29): assets with more than one version, kept in the address. */
const shot = screenshots("versions");

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`Has versions in the filter builder lists the assets with versions, and a reload keeps it (${viewport.width} px)`, async ({
    browser,
  }) => {
    // Three pictures uploaded and processed first: minutes on a busy machine.
    test.setTimeout(360_000);
    const context = await browser.newContext({ baseURL: baseUrl(), viewport });
    const page = await context.newPage();
    const phone = viewport.width < 600;
    const { workspaceId } = await signUpWithWorkspace(page, { prefix: "versions-filter", workspaceName: "Rounds" });
    const board = await createBoard(page, workspaceId, "Launch");
    const posterId = await uploadAsset(page, workspaceId, "poster.jpg", await poster(1), board.id);
    const flyer = await sharp(await poster(1))
      .resize(1200, 750)
      .jpeg()
      .toBuffer();
    await uploadAsset(page, workspaceId, "flyer.jpg", flyer, board.id);
    await uploadVersion(page, workspaceId, posterId, "poster-v2.jpg", await poster(2));

    await page.goto(`/w/${workspaceId}/b/${board.id}`);
    // The app's first load (a busy machine takes a while to serve it).
    await expect(card(page, "flyer.jpg")).toBeVisible({ timeout: 60_000 });
    await expect(card(page, "poster.jpg").getByTestId("card-version")).toHaveText("v2");
    await page.getByTestId("open-filters").click();
    const drawer = page.getByRole("dialog", { name: "Filters" });
    await drawer.getByRole("button", { name: /Favourites, review and upload date/ }).click();
    const versions = drawer.getByRole("radiogroup", { name: "Versions" });
    await versions.getByText("Has versions", { exact: true }).click();
    await expect(drawer.getByTestId("apply-filters")).toHaveText("Apply 1 filter");
    await settled(drawer);
    await shot(page, phone ? "filter-has-versions-phone" : "filter-has-versions");
    await drawer.getByTestId("apply-filters").click();

    await expect(page.getByTestId("filter-chip")).toHaveText(["Has versions"]);
    await expect(card(page, "flyer.jpg")).toHaveCount(0);
    await expect(card(page, "poster.jpg")).toBeVisible();
    const f = new URL(page.url()).searchParams.get("f");
    expect(f).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(f!, "base64url").toString())).toEqual({ has_versions: true });

    await page.reload();
    await expect(page.getByTestId("filter-chip")).toHaveText(["Has versions"], { timeout: 60_000 });
    await expect(card(page, "poster.jpg")).toBeVisible();
    await expect(card(page, "flyer.jpg")).toHaveCount(0);

    // The other way round: one version only.
    await page.getByTestId("open-filters").click();
    await drawer.getByRole("radiogroup", { name: "Versions" }).getByText("One version", { exact: true }).click();
    await drawer.getByTestId("apply-filters").click();
    await expect(page.getByTestId("filter-chip")).toHaveText(["One version"]);
    await expect(card(page, "flyer.jpg")).toBeVisible();
    await expect(card(page, "poster.jpg")).toHaveCount(0);
    await context.close();
  });
}
