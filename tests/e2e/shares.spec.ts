import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { expectToast, jpeg, newOwner, settled, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin } from "./support.ts";

/** Share links (issue #17): an EDITOR shares a board with a password; a visitor opens, browses and comments. */
const shot = screenshots("shares");

let owner: Awaited<ReturnType<typeof newOwner>>;
let editor: { context: BrowserContext; page: Page };
let boardId = "";
let subId = "";

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(180_000);
  owner = await newOwner(browser, "Share studio");
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await inviteAndJoin(owner.page, page, owner.workspaceId, "EDITOR");
  editor = { context, page };
  const ws = owner.workspaceId;
  boardId = (await api<{ id: string }>(owner.page, "POST", `/workspaces/${ws}/boards`, { name: "Spring campaign" })).id;
  subId = (
    await api<{ id: string }>(owner.page, "POST", `/workspaces/${ws}/boards`, { name: "Outtakes", parent_id: boardId })
  ).id;
  const ids = [
    await uploadAsset(owner.page, ws, "poster.jpg", await jpeg(1), boardId),
    await uploadAsset(owner.page, ws, "banner.jpg", await jpeg(2), boardId),
    await uploadAsset(owner.page, ws, "extra.jpg", await jpeg(3), subId),
  ];
  // Processed (thumbnails made) before anyone shares them.
  for (const id of ids)
    await expect
      .poll(async () => (await api<{ status: string }>(owner.page, "GET", `/workspaces/${ws}/assets/${id}`)).status, {
        timeout: 60_000,
      })
      .toBe("COMPLETED");
});
test.afterAll(async () => {
  await owner?.context.close();
  await editor?.context.close();
});

test("an EDITOR shares a board with a password; a visitor unlocks, browses, comments; disabling ends it at once", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page } = editor;
  await page.goto(`/w/${owner.workspaceId}/b/${boardId}`);
  await page.getByTestId("board-share").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Share Board" })).toBeVisible();
  // The defaults (spec 02 §6): comments shown and allowed, fields shown read-only, no downloads.
  await expect(page.getByTestId("share-flag-allow_commenting")).toBeChecked();
  await expect(page.getByTestId("share-flag-allow_downloads")).not.toBeChecked();
  await expect(page.getByTestId("share-flag-allow_editing_custom_fields")).not.toBeChecked();
  await expect(page.getByTestId("share-summary")).toHaveText("Comment mode");
  await page.getByRole("button", { name: "Sharing options" }).click();
  await expect(page.getByTestId("share-expiry")).toBeVisible();
  await settled(page.getByRole("dialog", { name: "Share Board" }));
  await page.getByRole("switch", { name: "Password protection" }).check();
  await expect(page.getByTestId("share-password-toggle")).toBeChecked();
  await expect(page.getByTestId("share-password")).toHaveAttribute("type", "password");
  await page.getByTestId("share-password").fill("spring-2027!");
  await page.getByTestId("share-password-save").click();
  await expectToast(page, "Password saved");
  await settled(page.getByRole("dialog", { name: "Share Board" }));
  await shot(page, "dialog");
  const url = await page.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);

  // A fresh browser: asked for the password, then the board.
  const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const visitor = await visitorContext.newPage();
  await visitor.goto(url);
  await expect(visitor.getByTestId("share-password-prompt")).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "Password required" })).toBeVisible();
  await shot(visitor, "password");
  const password = visitor.getByRole("textbox", { name: "Password" });
  await password.fill("not it");
  await visitor.getByRole("button", { name: "Open" }).click();
  await expect(visitor.getByText("Incorrect password")).toBeVisible();
  await password.fill("spring-2027!");
  await visitor.getByRole("button", { name: "Open" }).click();
  await expect(visitor.getByTestId("shared-board-name")).toHaveText("Spring campaign");
  await expect(visitor.getByTestId("shared-card")).toHaveCount(2);
  await expect(visitor.getByTestId("shared-board-download")).toHaveCount(0); // downloads are off
  // Thumbnails load through the link.
  await expect
    .poll(() =>
      visitor.evaluate(() =>
        [...Array.from(document.querySelectorAll<HTMLImageElement>("[data-testid=shared-card] img"))].map(
          (i) => i.complete && i.naturalWidth > 0,
        ),
      ),
    )
    .toEqual([true, true]);
  await shot(visitor, "board");
  // Into the sub-board and back.
  await visitor.getByTestId("shared-sub-board").filter({ hasText: "Outtakes" }).click();
  await expect(visitor.getByTestId("shared-board-name")).toHaveText("Outtakes");
  await expect(visitor.getByTestId("shared-card")).toHaveCount(1);
  await visitor.goBack();
  await expect(visitor.getByTestId("shared-board-name")).toHaveText("Spring campaign");

  // The viewer in shared view: comments first, no Share, no Boards, no Download.
  await visitor.getByTestId("shared-card").filter({ hasText: "poster.jpg" }).click();
  const viewer = visitor.getByTestId("asset-viewer");
  await expect(viewer).toBeVisible();
  await expect(visitor.getByTestId("comments-panel")).toBeVisible();
  await expect(visitor.getByTestId("viewer-share")).toHaveCount(0);
  await expect(visitor.getByTestId("viewer-download")).toHaveCount(0);
  await expect(visitor.getByTestId("viewer-tab-boards")).toHaveCount(0);
  await expect(visitor.getByTestId("viewer-board")).toHaveCount(0);
  await expect(viewer.getByTestId("product-mark")).toBeVisible();

  // Meanwhile the EDITOR has the same asset open.
  await page.keyboard.press("Escape");
  await page.getByText("poster.jpg").first().click();
  await expect(page.getByTestId("comments-panel")).toBeVisible();
  await expect(page.getByTestId("comments-empty")).toBeVisible();

  // The first comment asks for a name; the second does not.
  const compose = visitor.getByTestId("comment-compose").locator("textarea");
  await compose.fill("Love the red");
  await compose.press("Enter");
  const anon = visitor.getByRole("dialog", { name: "Post Comment or Edit Custom Field" });
  await expect(anon).toBeVisible();
  await settled(anon);
  await shot(visitor, "anonymous");
  await anon.getByLabel("Name").fill("  Dana Client  ");
  await anon.getByRole("button", { name: "Continue" }).click();
  await expectToast(visitor, "Comment posted successfully!");
  await expect(visitor.getByTestId("comments-panel").getByText("Dana Client")).toBeVisible();
  await compose.fill("And the layout");
  await compose.press("Enter");
  await expect(visitor.getByTestId("comments-panel").getByText("And the layout")).toBeVisible();
  await expect(anon).toBeHidden();
  await shot(visitor, "viewer");

  // The EDITOR, watching the same asset, saw the visitor's comments arrive live, under the visitor's name.
  await expect(page.getByTestId("comments-panel").getByText("Love the red")).toBeVisible();
  await expect(page.getByTestId("comments-panel").getByText("And the layout")).toBeVisible();
  await expect(page.getByTestId("comments-panel").getByText("Dana Client").first()).toBeVisible();
  await expect(page.getByTestId("comment-via-link").first()).toBeVisible();

  // Disabled: the visitor's next action says so, and the thumbnails stop loading.
  const thumbs = await visitor.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>("img"))
      .map((i) => i.src)
      .filter((s) => s.includes("/media/")),
  );
  expect(thumbs.length).toBeGreaterThan(0);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("asset-viewer")).toBeHidden();
  await page.getByTestId("board-share").click();
  await settled(page.getByRole("dialog", { name: "Share Board" }));
  // Saved, then shown: the switch follows the server's answer.
  await page.getByRole("switch", { name: "Link active" }).click();
  await expect(page.getByTestId("share-summary")).toHaveText("Disabled");
  await compose.fill("One more thing");
  await compose.press("Enter");
  await expectToast(visitor, "Link has expired or is no longer valid");
  for (const src of thumbs) {
    const res = await visitor.request.get(src);
    expect(res.status()).toBe(403);
  }
  await visitor.reload();
  await expect(visitor.getByTestId("shared-error")).toContainText("Link has expired or is no longer valid");
  await shot(visitor, "expired");
  await visitorContext.close();
});

test("a shared asset on a phone: the viewer fits, the tabs sit at the bottom", async ({ browser }) => {
  const ws = owner.workspaceId;
  const asset = (
    await api<{ data: Array<{ id: string; name: string }> }>(owner.page, "POST", `/workspaces/${ws}/assets`, {
      board_id: boardId,
    })
  ).data.find((a) => a.name === "banner.jpg")!;
  const link = await api<{ path: string }>(
    owner.page,
    "GET",
    `/workspaces/${ws}/share/asset/${asset.id}?board_id=${boardId}`,
  );
  await api(owner.page, "PUT", `/workspaces/${ws}/share/asset/${asset.id}`, {
    board_id: boardId,
    show_comments: false,
    allow_downloads: true,
  });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await page.goto(`${baseUrl()}${link.path}`);
  await expect(page.getByTestId("viewer-title")).toHaveText("banner.jpg");
  // Comments hidden by the link: no comments tab; details first (spec 02 §2).
  await expect(page.getByTestId("viewer-tab-comments")).toHaveCount(0);
  await expect(page.getByTestId("viewer-tab-details")).toBeVisible();
  await expect(page.getByRole("button", { name: "Download" })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await shot(page, "phone");
  await phone.close();
});
