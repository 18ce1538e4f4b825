import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { textPdf } from "../../apps/server/src/ops/demo-content.ts";
import { expectToast, newOwner, uploadAsset } from "./assets-support.ts";
import { clipMp4 } from "./media-fixtures.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin, linkFromMail } from "./support.ts";

/** Review (issue #15): two members comment and annotate the same assets, each seeing the other live. */
const shot = screenshots("comments");

async function picture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="1250">
    <rect width="2000" height="1250" fill="hsl(210,55%,55%)"/>
    <rect x="520" y="380" width="520" height="300" fill="#fff" fill-opacity="0.7"/>
    <text x="560" y="560" font-size="96" font-family="DejaVu Sans" fill="#234">LOGO</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
const pdf = () =>
  textPdf(
    [1, 2, 3].map((n) => ({
      title: `Brief page ${n}`,
      lines: ["Headline", "Body copy for review"],
      rgb: [0.2, 0.4, 0.7],
    })),
  );

let owner: Awaited<ReturnType<typeof newOwner>>;
let other: { context: BrowserContext; page: Page; email: string };
const ids: Record<string, string> = {};

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(240_000);
  owner = await newOwner(browser, "Review studio");
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const email = await inviteAndJoin(owner.page, page, owner.workspaceId, "COMMENTER");
  other = { context, page, email };
  const { page: p, workspaceId } = owner;
  ids.image = await uploadAsset(p, workspaceId, "hero.jpg", await picture());
  ids.pdf = await uploadAsset(p, workspaceId, "brief.pdf", pdf(), undefined, "application/pdf");
  ids.clip = await uploadAsset(p, workspaceId, "teaser.mp4", clipMp4(6), undefined, "video/mp4");
});
test.afterAll(async () => {
  await owner?.context.close();
  await other?.context.close();
});

const viewer = (page: Page) => page.getByTestId("asset-viewer");
const drawer = (page: Page) => page.getByTestId("comments-panel");
const thread = (page: Page, text: string) => drawer(page).getByTestId("comment-thread").filter({ hasText: text });

async function openAsset(page: Page, id: string) {
  await page.goto(`/w/${owner.workspaceId}/a/${id}`);
  await expect(viewer(page)).toBeVisible();
  await expect(drawer(page)).toBeVisible();
}

/** Presses at (fx, fy) of the picture and releases at (tx, ty) (fractions of its box). */
async function drag(page: Page, layer: string, from: [number, number], to: [number, number]) {
  const box = (await page.getByTestId(layer).first().boundingBox())!;
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 5 });
  await page.mouse.up();
}

test("a POINT on an image reaches the other member live; they reply but cannot edit it; the author edits", async () => {
  const a = owner.page;
  const b = other.page;
  await openAsset(a, ids.image!);
  await openAsset(b, ids.image!);
  await expect(drawer(a).getByText("No comments yet")).toBeVisible();
  await expect(drawer(a).getByText("Be the first to leave a comment!")).toBeVisible();
  await expect(a.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");

  // A click (no movement) is a point; its text box takes Enter; Escape meanwhile keeps the viewer open.
  await drag(a, "annotation-layer", [0.3, 0.4], [0.3, 0.4]);
  const box = a.getByTestId("annotation-textbox");
  await expect(box).toBeVisible();
  await a.keyboard.press("Escape");
  await expect(box).toBeHidden();
  await expect(viewer(a)).toBeVisible();
  await drag(a, "annotation-layer", [0.3, 0.4], [0.3, 0.4]);
  await a.getByLabel("Annotation comment").fill("Logo feels too small here");
  await a.keyboard.press("Enter");
  // The new annotation opens.
  await expect(a.getByTestId("annotation-popover")).toContainText("Logo feels too small here");
  await expect(thread(a, "Logo feels too small here")).toBeVisible();
  await shot(a, "popover");

  // B: the marker and the thread arrive without a reload.
  await expect(b.getByTestId("annotation-marker")).toHaveCount(1, { timeout: 5_000 });
  await expect(thread(b, "Logo feels too small here")).toBeVisible();
  // B may reply, not edit or delete A's comment.
  await expect(thread(b, "Logo feels too small here").getByRole("button", { name: "Comment actions" })).toHaveCount(0);
  await thread(b, "Logo feels too small here").getByRole("button", { name: "Reply" }).click();
  await b.getByLabel("Reply…").fill("Agreed, twice as big?");
  await b.keyboard.press("Enter");
  await expectToast(b, "Reply posted successfully");
  await expect(thread(b, "Logo feels too small here").getByTestId("comment-reply")).toContainText(
    "Agreed, twice as big?",
  );

  // A sees the reply count, expands it, and edits the first comment in place.
  const t = thread(a, "Logo feels too small here");
  await expect(t.getByRole("button", { name: "Show 1 reply" })).toBeVisible({ timeout: 5_000 });
  await t.getByRole("button", { name: "Show 1 reply" }).click();
  await expect(t.getByTestId("comment-reply")).toContainText("Agreed, twice as big?");
  await expect(t.getByRole("button", { name: "Hide replies" })).toBeVisible();
  await t.getByTestId("comment").getByRole("button", { name: "Comment actions" }).click();
  await a.getByRole("menuitem", { name: "Edit" }).click();
  await a.getByLabel("Edit comment").fill("Logo feels too small: make it 2×");
  await a.keyboard.press("Enter");
  await expectToast(a, "Comment updated successfully");
  await expect(thread(b, "make it 2×")).toContainText("edited", { timeout: 5_000 });
  await shot(a, "tab");

  // Markers stay on their spot through zoom.
  const marker = a.getByTestId("annotation-marker");
  const image = a.getByTestId("viewer-image");
  const rel = async () => {
    const m = (await marker.boundingBox())!;
    const i = (await image.boundingBox())!;
    return [(m.x + m.width / 2 - i.x) / i.width, (m.y + m.height / 2 - i.y) / i.height];
  };
  const before = await rel();
  await a.getByRole("button", { name: "Zoom in" }).click();
  await a.getByRole("button", { name: "Zoom in" }).click();
  await expect(a.getByTestId("zoom-level")).toHaveText("225%");
  const after = await rel();
  expect(Math.abs(after[0]! - before[0]!)).toBeLessThan(0.01);
  expect(Math.abs(after[1]! - before[1]!)).toBeLessThan(0.01);
  await shot(a, "markers-zoomed");
});

test("an AREA on page 2 of a PDF belongs to that page; clicking the comment elsewhere jumps there", async () => {
  const a = owner.page;
  const b = other.page;
  await openAsset(a, ids.pdf!);
  await a.getByRole("button", { name: "Next page" }).click();
  await expect(a.getByTestId("page-input")).toHaveValue("2");
  await expect(a.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  await drag(a, "annotation-layer", [0.2, 0.2], [0.6, 0.35]);
  await a.getByLabel("Annotation comment").fill("Headline needs more contrast");
  await a.keyboard.press("Enter");
  await expect(a.getByTestId("annotation-area")).toHaveCount(1);
  await a.getByRole("button", { name: "Previous page" }).click();
  await expect(a.getByTestId("annotation-area")).toHaveCount(0);

  await openAsset(b, ids.pdf!);
  await expect(b.getByTestId("page-input")).toHaveValue("1");
  await thread(b, "Headline needs more contrast").getByTestId("comment-place").click();
  await expect(b.getByTestId("page-input")).toHaveValue("2");
  await expect(b.getByTestId("annotation-area")).toHaveCount(1);
  await expect(b.getByTestId("annotation-popover")).toContainText("Headline needs more contrast");
});

test("the ADMIN deletes another member's thread after the confirmation; it goes for both", async () => {
  const a = owner.page;
  const b = other.page;
  await openAsset(b, ids.pdf!);
  await b.getByLabel("Add a comment…").fill("Temporary note");
  await b.keyboard.press("Enter");
  await expectToast(b, "Comment posted successfully!");
  await openAsset(a, ids.pdf!);
  await thread(a, "Temporary note").getByRole("button", { name: "Comment actions" }).click();
  await a.getByRole("menuitem", { name: "Delete" }).click();
  const dialog = a.getByRole("dialog", { name: "Delete Comment" });
  await expect(dialog).toContainText("Are you sure you want to delete this comment? This action cannot be undone.");
  await a.getByTestId("confirm-delete-comment").click();
  await expectToast(a, "Comment deleted successfully");
  // Only that thread went: the page's other thread stays.
  const left = await api<{ results: Array<{ text: string }> }>(
    a,
    "GET",
    `/workspaces/${owner.workspaceId}/comments?content_type=asset&object_id=${ids.pdf}`,
  );
  expect(left.results.map((c) => c.text)).toEqual(["Headline needs more contrast"]);
  await expect(thread(b, "Temporary note")).toHaveCount(0, { timeout: 5_000 });
});

test("a comment on a paused video is stamped with its time; its marker and its chip jump the player there", async () => {
  const a = owner.page;
  await openAsset(a, ids.clip!);
  const video = a.getByTestId("viewer-video");
  await expect(a.getByTestId("video-loading")).toBeHidden();
  await video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    v.currentTime = 3;
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(3, 1);
  await a.getByLabel("Add a comment…").click();
  await expect(a.getByTestId("video-stamp")).toHaveText("at 00:03");
  await a.getByLabel("Add a comment…").fill("Cut here");
  await a.keyboard.press("Enter");
  await expectToast(a, "Comment posted successfully!");
  await expect(a.getByTestId("timeline-marker")).toHaveCount(1);
  await a.getByTestId("video-player").hover();
  await shot(a, "video-markers");
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0;
  });
  await thread(a, "Cut here").getByTestId("comment-place").click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(3, 1);
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0;
  });
  await a.getByTestId("timeline-marker").click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(3, 1);
});

test("mentioning a member mails them a link to the comment", async () => {
  const a = owner.page;
  await openAsset(a, ids.image!);
  const input = a.getByLabel("Add a comment…");
  await input.fill("Please check @Cas");
  await a.getByRole("option", { name: /Casey/ }).click();
  await input.pressSequentially("the colours");
  await a.keyboard.press("Enter");
  await expectToast(a, "Comment posted successfully!");
  const link = await linkFromMail(other.email, `/a/${ids.image}`);
  expect(link).toContain("?comment=");
});

test("resolving folds the thread away and the grid's open-comment badge follows", async () => {
  const a = owner.page;
  await a.goto(`/w/${owner.workspaceId}/b/all`);
  const card = a.getByTestId("asset-card").filter({ hasText: "hero.jpg" });
  await expect(card.getByTestId("card-open-comments")).toHaveText("2");
  await openAsset(a, ids.image!);
  await thread(a, "make it 2×").getByRole("button", { name: "Resolve" }).click();
  await expect(drawer(a).getByRole("button", { name: "Show 1 resolved" })).toBeVisible();
  await expect(drawer(a).getByTestId("comment-list").getByText("make it 2×")).toBeHidden();
  await expect(a.getByTestId("annotation-marker")).toHaveCount(0);
  await a.goto(`/w/${owner.workspaceId}/b/all`);
  await expect(card.getByTestId("card-open-comments")).toHaveText("1");
});

test("the comment drawer on a phone", async () => {
  const b = other.page;
  const listed = await api<{ results: Array<{ text: string }> }>(
    b,
    "GET",
    `/workspaces/${owner.workspaceId}/comments?content_type=asset&object_id=${ids.pdf}`,
  );
  expect(listed.results.map((c) => c.text)).toContain("Headline needs more contrast");
  await b.setViewportSize({ width: 390, height: 844 });
  await b.goto(`/w/${owner.workspaceId}/a/${ids.pdf}`);
  await b.getByTestId("viewer-tab-comments").click();
  await expect(b.getByTestId("viewer-sheet").getByTestId("comments-panel")).toBeVisible();
  await expect(b.getByTestId("viewer-sheet")).toContainText("Headline needs more contrast");
  // "Comments" once (the sheet has no title of its own), and the rail stays in reach under it.
  await expect(viewer(b).getByText("Comments", { exact: true })).toHaveCount(1);
  await expect(b.getByTestId("viewer-tab-details")).toBeInViewport({ ratio: 1 });
  // The sheet sits below the picture, not over it: the page and its annotation stay in view, and
  // the annotation's popover stays on the picture, off the sheet.
  await thread(b, "Headline needs more contrast").getByTestId("comment-place").click();
  await expect(b.getByTestId("page-input")).toHaveValue("2");
  await expect(b.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  const sheet = (await b.getByTestId("viewer-sheet").boundingBox())!;
  const picture = (await b.getByTestId("viewer-image").boundingBox())!;
  expect(picture.height).toBeGreaterThan(150);
  expect(picture.y + picture.height).toBeLessThanOrEqual(sheet.y + 1);
  await expect(b.getByTestId("annotation-area")).toBeInViewport();
  const popover = (await b.getByTestId("annotation-popover").boundingBox())!;
  expect(popover.y + popover.height).toBeLessThanOrEqual(sheet.y);
  await shot(b, "phone");
  // The rail works with the sheet open: another tab, then the same tab closes the sheet.
  await b.getByTestId("viewer-tab-details").click();
  await expect(b.getByTestId("viewer-sheet").getByTestId("details-panel")).toBeVisible();
  await b.getByTestId("viewer-tab-details").click();
  await expect(b.getByTestId("viewer-sheet")).toBeHidden();
});
