import { expect, test } from "@playwright/test";
import { card } from "./asset-grid-helpers.ts";
import { createBoard, expectToast, jpeg, newOwner, settled, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin } from "./support.ts";

const shot = screenshots("rights");
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const base64url = (s: string) => Buffer.from(s).toString("base64url");

/**
 * Usage rights (issue 33): an expiry set in the viewer takes the asset out of the board's share link
 * at once (the visitor's grid), the card and the viewer say "Rights expired", an EDITOR's download is
 * refused with the reason, and extending the date from the bulk bar brings it back.
 */
test("a rights expiry set in the viewer takes the asset out of a board share link; extended, it is back", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { context, page, workspaceId } = await newOwner(browser, "Rights");
  const board = await createBoard(page, workspaceId, "Press kit");
  const heroId = await uploadAsset(page, workspaceId, "hero.jpg", await jpeg(1), board.id);
  await uploadAsset(page, workspaceId, "alt.jpg", await jpeg(2), board.id);
  const link = await api<{ token: string }>(page, "GET", `/workspaces/${workspaceId}/share/board/${board.id}`);

  const visitorContext = await browser.newContext({ baseURL: baseUrl(), viewport: WIDE });
  const visitor = await visitorContext.newPage();
  const open = (name: string) => visitor.getByRole("button", { name: `Open ${name}` });
  await visitor.goto(`/s/${link.token}`);
  await expect(open("hero.jpg")).toBeVisible();
  await expect(open("alt.jpg")).toBeVisible();

  // The owner sets the rights in the viewer's details: licensed, credited, expired yesterday.
  await page.setViewportSize(WIDE);
  await page.goto(`/w/${workspaceId}/a/${heroId}`);
  await page.getByTestId("viewer-tab-details").click();
  const section = page.getByTestId("rights-section");
  await expect(section).toContainText("No usage rights recorded.");
  await section.getByTestId("rights-edit").click();
  await section.getByRole("combobox", { name: "Licence" }).click();
  await page.getByRole("option", { name: "Licensed" }).click();
  await section.getByRole("textbox", { name: "Credit / creator" }).fill("Ana Photographer");
  const territories = section.getByLabel("Territories");
  for (const t of ["de", "Worldwide"]) {
    await territories.fill(t);
    await territories.press("Enter");
  }
  await section.getByRole("checkbox", { name: "Model release" }).check();
  await section.getByLabel("Rights expire on").fill(day(-1));
  await shot(page, "viewer-editing-1440");
  await section.getByTestId("rights-save").click();
  await expectToast(page, "Rights saved");
  await expect(section.getByTestId("rights-badge")).toHaveText("Rights expired");
  await expect(section).toContainText("Ana Photographer");
  await expect(section).toContainText("DE, Worldwide");
  await expect(section).toContainText(day(-1));
  await section.scrollIntoViewIfNeeded();
  await shot(page, "viewer-expired-1440");
  await page.setViewportSize(PHONE);
  // On a phone the details open in a sheet; the tab toggles it.
  const tab = page.getByTestId("viewer-tab-details");
  await expect(tab).toBeVisible();
  if ((await tab.getAttribute("aria-pressed")) !== "true") await tab.click();
  await expect(page.getByTestId("rights-section").getByTestId("rights-badge")).toBeVisible();
  await page.getByTestId("rights-section").scrollIntoViewIfNeeded();
  await shot(page, "viewer-expired-390");

  // The visitor's share link no longer shows it.
  await visitor.reload();
  await expect(open("alt.jpg")).toBeVisible();
  await expect(open("hero.jpg")).toHaveCount(0);
  await shot(visitor, "share-link-without-it-1440");
  await visitor.setViewportSize(PHONE);
  await shot(visitor, "share-link-without-it-390");

  // The members' grid marks the card.
  await page.setViewportSize(WIDE);
  await page.goto(`/w/${workspaceId}/b/${board.id}`);
  await expect(card(page, "hero.jpg").getByTestId("card-rights")).toHaveText("Rights expired");
  await expect(card(page, "alt.jpg").getByTestId("card-rights")).toHaveCount(0);
  await shot(page, "grid-expired-1440");

  // An EDITOR's download is refused, saying why.
  const editorContext = await browser.newContext({ baseURL: baseUrl(), viewport: WIDE });
  const editor = await editorContext.newPage();
  await inviteAndJoin(page, editor, workspaceId, "EDITOR", "Eddie");
  await editor.goto(`/w/${workspaceId}/a/${heroId}`);
  await editor.getByRole("button", { name: "Download", exact: true }).click();
  await expectToast(editor, `The usage rights of hero.jpg expired on ${day(-1)}: only ADMINs can download it.`);
  await shot(editor, "download-refused-1440");
  await editorContext.close();

  // Extended from the bulk bar: back on the share link at once.
  await card(page, "hero.jpg").click({ modifiers: ["ControlOrMeta"] });
  await page.getByTestId("asset-bulk-bar").getByTestId("bulk-more").click();
  await page.getByRole("menuitem", { name: "Usage rights…" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit rights" });
  await settled(dialog);
  await expect(dialog.getByRole("combobox", { name: "Change" })).toHaveValue("Expiry date");
  await dialog.getByLabel("Rights expire on").fill(day(20));
  await shot(page, "bulk-dialog-1440");
  await dialog.getByTestId("bulk-rights-save").click();
  await expectToast(page, "Rights updated for 1 asset");
  await expect(card(page, "hero.jpg").getByTestId("card-rights")).toHaveText(/Expires in (20|21) days/);
  await visitor.setViewportSize(WIDE);
  await visitor.reload();
  await expect(open("hero.jpg")).toBeVisible();

  // The filter builder's rights filters: expiring within 30 days, as a chip and in the URL.
  await page.goto(`/w/${workspaceId}/b/all?f=${base64url(JSON.stringify({ rights_expire: { within_days: 30 } }))}`);
  await expect(page.getByTestId("filter-chip")).toHaveText(["Rights expire within 30 days"]);
  await expect(card(page, "hero.jpg")).toBeVisible();
  await expect(card(page, "alt.jpg")).toHaveCount(0);
  await page.getByTestId("open-filters").click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  await expect(drawer.getByTestId("filter-rights-within")).toBeVisible();
  await drawer.getByText("No release", { exact: true }).click();
  await shot(page, "filter-drawer-1440");
  await drawer.getByTestId("apply-filters").click();
  // hero.jpg has a model release: nothing left; the URL holds both conditions.
  await expect(page.getByTestId("filter-chip")).toHaveText(["Rights expire within 30 days", "No release"]);
  await expect(card(page, "hero.jpg")).toHaveCount(0);
  const f = new URL(page.url()).searchParams.get("f")!;
  expect(JSON.parse(Buffer.from(f, "base64url").toString())).toEqual({
    rights_expire: { within_days: 30 },
    no_release: true,
  });
  await page.setViewportSize(PHONE);
  await shot(page, "filtered-390");

  await visitorContext.close();
  await context.close();
});
