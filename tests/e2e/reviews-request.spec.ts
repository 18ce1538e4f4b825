import { type Browser, type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { card, cards } from "./asset-grid-helpers.ts";
import { createBoard, jpeg, settled, toasts, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin, signUpWithWorkspace, uniqueEmail } from "./support.ts";

/**
 * Approvals (issue 30), the requesting side: an editor asks for a two-stage review from the bulk bar,
 * finds it under "Requested by me"; the stage's reviewer finds it under "Waiting for me"; a commenter
 * is offered no "Request review" anywhere. Server errors show in the dialog as the server words them.
 */
const shot = screenshots("reviews");

let contexts: BrowserContext[] = [];
let owner: Page;
let editor: Page;
let commenter: Page;
let workspaceId: string;
let commenterEmail: string;
let emptyBoard: { id: string; name: string };
const outsider = uniqueEmail("client");
/** A first page load on a machine shared with other runs can take a while: waited for, not timed. */
const LOAD = 60_000;

async function newPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  return context.newPage();
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  owner = await newPage(browser);
  ({ workspaceId } = await signUpWithWorkspace(owner, { prefix: "reviews", workspaceName: "Review studio" }));
  for (const [i, name] of ["hero.jpg", "banner.jpg"].entries())
    await uploadAsset(owner, workspaceId, name, await jpeg(i));
  emptyBoard = await createBoard(owner, workspaceId, "Empty board");
  editor = await newPage(browser);
  await inviteAndJoin(owner, editor, workspaceId, "EDITOR");
  commenter = await newPage(browser);
  commenterEmail = await inviteAndJoin(owner, commenter, workspaceId, "COMMENTER");
});
// The pages are the suite's own (not the test's fixture): keep what each showed when a test failed.
test.afterEach(async ({ browserName: _ }, info) => {
  if (info.status === info.expectedStatus) return;
  for (const [name, p] of Object.entries({ owner, editor, commenter }))
    if (p && !p.isClosed()) await p.screenshot({ path: info.outputPath(`${name}.png`) });
});
test.afterAll(async () => {
  for (const c of contexts) await c.close();
  contexts = [];
});

const bulkBar = (page: Page) => page.getByTestId("asset-bulk-bar");
const dialogOf = (page: Page) => page.getByRole("dialog", { name: "Request review" });
const stage = (dialog: Locator, n: number) => dialog.getByTestId(`review-stage-${n}`);

/** Types into a stage's reviewers box and picks the suggestion that shows `pick`. */
async function pickMember(page: Page, box: Locator, typed: string, pick: string) {
  await box.getByRole("textbox").fill(typed);
  await page.getByRole("option").filter({ hasText: pick }).click();
}

test("an editor requests a two-stage review from the bulk bar and finds it under Requested by me", async () => {
  test.setTimeout(300_000);
  await editor.goto(`/w/${workspaceId}/b/all`);
  await expect(cards(editor)).toHaveCount(2, { timeout: LOAD });
  await card(editor, "hero.jpg").click({ modifiers: ["ControlOrMeta"] });
  await card(editor, "banner.jpg").click({ modifiers: ["ControlOrMeta"] });
  await expect(bulkBar(editor).getByTestId("bulk-count")).toHaveText("2 selected");
  // The bar stays one line at 1440 px: Clear selection beside the count.
  const count = (await bulkBar(editor).getByTestId("bulk-count").boundingBox())!;
  const clear = (await bulkBar(editor).getByRole("button", { name: "Clear selection" }).boundingBox())!;
  expect(Math.abs(clear.y + clear.height / 2 - (count.y + count.height / 2))).toBeLessThan(8);
  await bulkBar(editor).getByRole("button", { name: "More actions" }).click();
  await expect(editor.getByRole("menu").getByRole("menuitem")).toHaveText([
    "Compare",
    "Stack as versions",
    "Usage rights…",
    "Request review…",
  ]);
  await editor.getByRole("menuitem", { name: "Request review…" }).click();
  const dialog = dialogOf(editor);
  await settled(dialog);

  // Sent empty: each mistake is named where it is.
  await dialog.getByRole("button", { name: "Request review" }).click();
  await expect(dialog.getByText("Give the review a title")).toBeVisible();
  await expect(stage(dialog, 1).getByText("A stage needs at least one reviewer")).toBeVisible();

  await dialog.getByRole("textbox", { name: "Title" }).fill("Spring campaign");
  await dialog.getByRole("textbox", { name: "Message" }).fill("Please check the colours.");
  await dialog.getByTestId("review-due").fill("2031-05-01T17:00");
  // Stage 1: the commenter, found by their address among the members' suggestions.
  await pickMember(editor, stage(dialog, 1), "commenter-", commenterEmail);
  await expect(stage(dialog, 1).getByText("Casey")).toBeVisible();
  await expect(stage(dialog, 1).getByText("A stage needs at least one reviewer")).toHaveCount(0);
  // Stage 2: the owner by name, and an outsider's address typed in (Enter adds it); any one approves.
  await dialog.getByRole("button", { name: "Add a stage" }).click();
  await pickMember(editor, stage(dialog, 2), "Oliv", "Olivia Owner");
  const stage2 = stage(dialog, 2).getByRole("textbox");
  await stage2.fill(outsider);
  await stage2.press("Enter");
  await expect(stage(dialog, 2).getByText(outsider)).toBeVisible();
  await stage(dialog, 2).getByText("Any one approves").click();
  await expect(dialog.getByRole("switch", { name: "Lock approved assets" })).toBeChecked();
  await shot(editor, "dialog-1440");
  await editor.setViewportSize({ width: 390, height: 844 });
  await settled(dialog);
  await shot(editor, "dialog-390");
  await editor.setViewportSize({ width: 1440, height: 900 });

  await dialog.getByRole("button", { name: "Request review" }).click();
  await expect(dialog).toBeHidden();
  const toast = toasts(editor).filter({ hasText: "Review requested" });
  await expect(toast).toBeVisible();
  await toast.getByRole("button", { name: "Open review" }).click();

  // The review: two stages, the first active and asking the commenter; two assets pending.
  const review = editor.getByTestId("review-page");
  await expect(review.getByRole("heading", { name: "Spring campaign" })).toBeVisible({ timeout: LOAD });
  await expect(review.getByTestId("review-state")).toHaveText("Open");
  await expect(review.getByTestId("review-progress")).toHaveText("0 of 2 approved");
  await expect(review.getByTestId("review-stage-1")).toContainText("Active");
  await expect(review.getByTestId("review-stage-1")).toContainText("2 to decide");
  await expect(review.getByTestId("review-stage-2")).toContainText("Not started");
  await expect(review.getByTestId("review-stage-2")).toContainText("Any one reviewer's approval is enough");
  await expect(review.getByTestId("review-stage-2")).toContainText(outsider);
  await expect(review.getByTestId("review-asset")).toHaveCount(2);
  await expect(review.getByRole("button", { name: "Cancel review" })).toBeVisible();
  await expect(review.getByTestId("review-history")).toContainText("Requested by Casey");
  await shot(editor, "detail-1440");
  await editor.setViewportSize({ width: 390, height: 844 });
  await shot(editor, "detail-390");
  await editor.setViewportSize({ width: 1440, height: 900 });

  // The requester edits it: the dialog holds the review as it is; saving shows the change at once.
  await review.getByTestId("review-edit").click();
  const edit = editor.getByRole("dialog", { name: "Edit review" });
  await settled(edit);
  await expect(edit.getByRole("textbox", { name: "Title" })).toHaveValue("Spring campaign");
  await expect(stage(edit, 1).getByText("Casey")).toBeVisible();
  await expect(stage(edit, 2).getByText(outsider)).toBeVisible();
  await edit.getByRole("textbox", { name: "Message" }).fill("Please check the colours and the crop.");
  await shot(editor, "edit-1440");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toBeHidden();
  await expect(toasts(editor).filter({ hasText: "Review updated" })).toBeVisible();
  await expect(review.getByText("Please check the colours and the crop.")).toBeVisible();

  // An asset opens in the viewer with the review in the address; closing comes back here.
  await review.getByRole("button", { name: "Open hero.jpg" }).first().click();
  await expect(editor.getByTestId("asset-viewer")).toBeVisible({ timeout: LOAD });
  expect(new URL(editor.url()).searchParams.get("review")).toMatch(/^[0-9a-f-]{36}$/);
  await editor.getByRole("button", { name: "Close viewer" }).click();
  await expect(review).toBeVisible();

  // Reviews → Requested by me.
  await editor.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Reviews" }).click();
  await expect(editor.getByRole("tab", { name: "Waiting for me" })).toHaveAttribute("aria-selected", "true", {
    timeout: LOAD,
  });
  await expect(editor.getByTestId("reviews-empty")).toContainText("Nothing is waiting for you");
  // An editor is no admin: no "All".
  await expect(editor.getByRole("tab", { name: "All" })).toHaveCount(0);
  await editor.getByRole("tab", { name: "Requested by me" }).click();
  await expect(editor).toHaveURL(/tab=requested/);
  const row = editor.getByTestId("review-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("review-row-title")).toHaveText("Spring campaign");
  await expect(row.getByTestId("review-row-state")).toHaveText("Open");
  await expect(row.getByTestId("review-row-progress")).toHaveText("0 of 2 approved");
  await expect(row).toContainText("Stage 1 of 2");
  await expect(row.getByTestId("review-row-due")).toContainText("Due");
  await shot(editor, "requested-1440");
});

test("the stage's reviewer finds it under Waiting for me; an admin sees All", async () => {
  test.setTimeout(180_000);
  await commenter.goto(`/w/${workspaceId}/reviews`);
  const row = commenter.getByTestId("review-row");
  await expect(row).toHaveCount(1, { timeout: LOAD });
  await expect(row).toContainText("Spring campaign");
  await expect(row).toContainText("2 waiting for you");
  await expect(row).toContainText("Requested by Casey");
  await shot(commenter, "waiting-1440");
  await commenter.setViewportSize({ width: 390, height: 844 });
  await shot(commenter, "waiting-390");
  await commenter.setViewportSize({ width: 1440, height: 900 });
  await row.click();
  await expect(commenter.getByTestId("review-page").getByText("Waiting for you")).toHaveCount(2, { timeout: LOAD });
  // A reviewer who did not ask for it neither cancels nor reopens it.
  await expect(commenter.getByRole("button", { name: "Cancel review" })).toHaveCount(0);

  // The owner is a reviewer of stage 2, not asked yet: nothing waits for them; as an admin they see All.
  await owner.goto(`/w/${workspaceId}/reviews`);
  await expect(owner.getByTestId("reviews-empty")).toContainText("Nothing is waiting for you", { timeout: LOAD });
  await shot(owner, "empty-1440");
  await owner.getByRole("tab", { name: "All" }).click();
  await expect(owner.getByTestId("review-row")).toHaveCount(1);
});

test("a commenter is offered no Request review: not in the bulk bar, the viewer or a board's menu", async () => {
  test.setTimeout(180_000);
  await commenter.goto(`/w/${workspaceId}/b/all`);
  await expect(cards(commenter)).toHaveCount(2, { timeout: LOAD });
  await card(commenter, "hero.jpg").click({ modifiers: ["ControlOrMeta"] });
  await expect(bulkBar(commenter).getByTestId("bulk-count")).toHaveText("1 selected");
  await expect(bulkBar(commenter).getByRole("button", { name: "More actions" })).toHaveCount(0);
  await card(commenter, "banner.jpg").click({ modifiers: ["ControlOrMeta"] });
  await bulkBar(commenter).getByRole("button", { name: "More actions" }).click();
  await expect(commenter.getByRole("menu").getByRole("menuitem")).toHaveText(["Compare"]);
  await commenter.keyboard.press("Escape");
  await bulkBar(commenter).getByRole("button", { name: "Clear selection" }).click();

  await card(commenter, "hero.jpg").dblclick();
  await expect(commenter.getByTestId("asset-viewer")).toBeVisible({ timeout: LOAD });
  await expect(commenter.getByTestId("viewer-title")).toHaveText("hero.jpg");
  await expect(commenter.getByRole("button", { name: "Request review" })).toHaveCount(0);
  await commenter.getByRole("button", { name: "Close viewer" }).click();

  await commenter.goto(`/w/${workspaceId}/b/${emptyBoard.id}`);
  await expect(commenter.getByTestId("board-page")).toBeVisible({ timeout: LOAD });
  await expect(commenter.getByRole("button", { name: "Board options" })).toHaveCount(0);
  // And the server agrees: a commenter's request is refused.
  await expect(
    api(commenter, "POST", `/workspaces/${workspaceId}/reviews`, {
      title: "Mine",
      board_id: emptyBoard.id,
      stages: [{ reviewers: [outsider] }],
    }),
  ).rejects.toThrow(/answered 403/);
});

test("from a board's menu and the viewer; the server's refusal shows in the dialog", async () => {
  test.setTimeout(180_000);
  // An empty board: the server says so, in the dialog.
  await editor.goto(`/w/${workspaceId}/b/${emptyBoard.id}`);
  await expect(editor.getByTestId("board-page")).toBeVisible({ timeout: LOAD });
  await editor.getByRole("button", { name: "Board options" }).click();
  await editor.getByRole("menuitem", { name: "Request review…" }).click();
  const dialog = dialogOf(editor);
  await settled(dialog);
  await expect(dialog.getByRole("textbox", { name: "Title" })).toHaveValue("Empty board");
  const box = stage(dialog, 1).getByRole("textbox");
  await box.fill(outsider);
  await box.press("Enter");
  await dialog.getByRole("button", { name: "Request review" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("The board has no assets to review.");
  await shot(editor, "dialog-server-error");
  await editor.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // The viewer's header: this asset, its name as the title.
  await editor.goto(`/w/${workspaceId}/b/all`);
  await expect(cards(editor)).toHaveCount(2, { timeout: LOAD });
  await card(editor, "banner.jpg").dblclick();
  await expect(editor.getByTestId("viewer-title")).toHaveText("banner.jpg");
  await editor.getByTestId("viewer-request-review").click();
  await settled(dialog);
  await expect(dialog.getByRole("textbox", { name: "Title" })).toHaveValue("banner.jpg");
  await expect(dialog).toContainText("Reviewers decide on this asset");
});
