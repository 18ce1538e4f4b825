import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { textPdf } from "../../apps/server/src/ops/demo-content.ts";
import { card } from "./asset-grid-helpers.ts";
import { createBoard, jpeg, newOwner, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl } from "./support.ts";

/** What a share link's visitor sees of an asset beyond comments and fields (issue 35). */
const shot = screenshots("shared-details");

/** A picture of printed text, for OCR to read. */
const textPng = (line: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="330"><rect width="100%" height="100%" fill="#fdfdf8"/>` +
        `<text x="70" y="170" font-family="DejaVu Sans, sans-serif" font-size="90" fill="#1a1a1a">${line}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();

/** Every 4xx answer the page receives (the Details tab used to ask the members' route and get 401). */
function clientErrors(page: Page): string[] {
  const seen: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 400 && r.status() < 500) seen.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  return seen;
}

test("a visitor's Details tab shows the text read in the shared picture, through the link", async ({ browser }) => {
  test.setTimeout(180_000);
  const { context, page, workspaceId } = await newOwner(browser, "Shared text");
  const board = await createBoard(page, workspaceId, "Receipts");
  const id = await uploadAsset(
    page,
    workspaceId,
    "receipt.png",
    await textPng("HANGAR RECEIPT 2026"),
    board.id,
    "image/png",
  );
  await expect
    .poll(
      async () =>
        (await api<{ status: string }>(page, "GET", `/workspaces/${workspaceId}/assets/${id}/recognised-text`)).status,
      { timeout: 120_000, message: "OCR done" },
    )
    .toBe("done");
  const link = await api<{ token: string }>(
    page,
    "GET",
    `/workspaces/${workspaceId}/share/asset/${id}?board_id=${board.id}`,
  );

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const visitorContext = await browser.newContext({ baseURL: baseUrl(), viewport });
    const visitor = await visitorContext.newPage();
    const errors = clientErrors(visitor);
    await visitor.goto(`/s/${link.token}`);
    await visitor.getByTestId("viewer-tab-details").click();
    const text = visitor.getByTestId("recognised-text");
    await expect(text).toContainText("Text in image");
    await expect(text).toContainText(/receipt/i);
    await shot(visitor, `visitor-${viewport.width}`);
    expect(errors).toEqual([]);
    await visitorContext.close();
  }
  await context.close();
});

/** How a card's picture is cut and from which rendition (its path, without the signature). */
const fitOf = (img: import("@playwright/test").Locator) =>
  img.evaluate((el: HTMLImageElement) => {
    const style = getComputedStyle(el);
    return { fit: style.objectFit, position: style.objectPosition, rendition: new URL(el.src).pathname };
  });

test("the public grid shows a document as the members' grid does: the same rendition, from the page's top", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { context, page, workspaceId } = await newOwner(browser, "Shared grid");
  const board = await createBoard(page, workspaceId, "Briefs");
  const brief = textPdf([{ title: "Spring brief", lines: ["Headline", "Body copy"], rgb: [0.2, 0.4, 0.7] }]);
  await uploadAsset(page, workspaceId, "brief.pdf", brief, board.id, "application/pdf");
  await uploadAsset(page, workspaceId, "photo.jpg", await jpeg(2), board.id);
  const link = await api<{ token: string }>(page, "GET", `/workspaces/${workspaceId}/share/board/${board.id}`);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${workspaceId}/b/${board.id}`);
  const memberImg = (name: string) => card(page, name).locator("img");
  await expect(memberImg("brief.pdf")).toHaveCSS("opacity", "1");
  const members = { pdf: await fitOf(memberImg("brief.pdf")), photo: await fitOf(memberImg("photo.jpg")) };
  expect(members.pdf).toMatchObject({ fit: "cover", position: "50% 0%" });
  expect(members.photo).toMatchObject({ fit: "cover", position: "50% 50%" });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const visitorContext = await browser.newContext({ baseURL: baseUrl(), viewport });
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/s/${link.token}`);
    const card = (name: string) => visitor.getByRole("button", { name: `Open ${name}` }).locator("img");
    await expect(card("brief.pdf")).toHaveCSS("opacity", "1");
    expect(await fitOf(card("brief.pdf"))).toEqual(members.pdf);
    expect(await fitOf(card("photo.jpg"))).toEqual(members.photo);
    await shot(visitor, `grid-${viewport.width}`);
    await visitorContext.close();
  }
  await context.close();
});
