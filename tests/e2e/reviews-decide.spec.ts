import { readFileSync } from "node:fs";
import { type Browser, type BrowserContext, expect as baseExpect, type Page, test } from "@playwright/test";
import { jpeg, toasts, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin, linkFromMail, signUpWithWorkspace, uniqueEmail } from "./support.ts";
import { poster as roundPoster, uploadVersion } from "./versions-support.ts";
import { stoppedMoving } from "./waits.ts";

/**
 * A review from request to record (issue 30's flow): an EDITOR asks two members (stage 1, all must
 * approve) and then an outside address (stage 2). In the viewer's decision bar one member approves
 * and goes on to the next asset, the other asks for changes with a note that becomes a comment (seen
 * live by the first); a new version puts that asset back to pending and both approve it, which
 * starts stage 2; the outside reviewer opens the link mailed to them then, comments under their name
 * and approves; the requester sees "Approved" and downloads the report. Desktop and phone.
 */
const shot = screenshots("reviews-decide");
// Each flow drives several browsers at once against one server: generous bounds for a busy machine
// (every wait is for a condition; the bounds only say when to give up).
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 30_000 });
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let owner: Page;
let casey: Page;
let riley: Page;
let morgan: Page;
const contexts: BrowserContext[] = [];
let workspaceId: string;
let posterId: string;
let flyerId: string;
let reviewId: string;
const outsider = uniqueEmail("pat");

async function newPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: DESKTOP });
  contexts.push(context);
  return context.newPage();
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(240_000);
  owner = await newPage(browser);
  casey = await newPage(browser);
  riley = await newPage(browser);
  morgan = await newPage(browser);
  ({ workspaceId } = await signUpWithWorkspace(owner, { prefix: "reviews", workspaceName: "Northwind Studio" }));
  // Casey, an EDITOR, asks for the review; reviewers who are members need no more than COMMENTER.
  await inviteAndJoin(owner, casey, workspaceId, "EDITOR", "Casey");
  const rileyEmail = await inviteAndJoin(owner, riley, workspaceId, "COMMENTER", "Riley");
  const morganEmail = await inviteAndJoin(owner, morgan, workspaceId, "EDITOR", "Morgan");
  posterId = await uploadAsset(owner, workspaceId, "poster.jpg", await jpeg(1));
  flyerId = await uploadAsset(owner, workspaceId, "flyer.jpg", await jpeg(2));
  // The request dialog itself is reviews-request.spec's: here it is sent as the dialog sends it.
  const review = await api<{ id: string }>(casey, "POST", `/workspaces/${workspaceId}/reviews`, {
    title: "Spring campaign",
    message: "Please check the poster and the flyer before Friday's print run.",
    asset_ids: [posterId, flyerId],
    due_at: new Date(Date.now() + 3 * 24 * 3600_000).toISOString(),
    stages: [
      { rule: "all", reviewers: [rileyEmail, morganEmail] },
      { rule: "all", reviewers: [{ email: outsider, name: "Pat Outside" }] },
    ],
  });
  reviewId = review.id;
});
test.afterAll(async () => {
  for (const c of contexts) await c.close();
});

const bar = (page: Page) => page.getByTestId("decision-bar");
const expectToast = (page: Page, text: string) => expect(toasts(page).filter({ hasText: text }).last()).toBeVisible();
const viewerTitle = (page: Page) => page.getByTestId("viewer-title");

/** Opens the viewer by its address; a first load fetches the app's chunks (slow on a busy machine). */
async function openViewer(page: Page, path: string, name: string) {
  await page.goto(path);
  await expect(viewerTitle(page)).toHaveText(name, { timeout: 60_000 });
}

test("a reviewer approves in the viewer, sees their decision, and goes on to the next asset in the review", async () => {
  await openViewer(riley, `/w/${workspaceId}/a/${posterId}?review=${reviewId}`, "poster.jpg");
  await expect(bar(riley)).toBeVisible();
  await expect(bar(riley).getByTestId("decision-review-title")).toHaveText("Spring campaign");
  await expect(bar(riley).getByTestId("decision-mine")).toContainText("Awaiting your decision");
  await expect(bar(riley).getByRole("button", { name: "Approve", exact: true })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
  await expect(riley.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  await shot(riley, "member-pending-desktop");

  await bar(riley).getByRole("button", { name: "Approve", exact: true }).click();
  await expectToast(riley, "Approved: poster.jpg");
  await expect(bar(riley)).toHaveAttribute("data-mine", "approved");
  await expect(bar(riley).getByTestId("decision-mine")).toContainText("You: Approved");
  await expect(bar(riley).getByRole("button", { name: "Approve", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  // Morgan has not decided: the poster is still in review.
  await expect(bar(riley)).toHaveAttribute("data-status", "in_review");

  // The next asset still awaiting Riley: the flyer, in the same review.
  await bar(riley).getByRole("button", { name: "Next asset in this review" }).click();
  await expect(viewerTitle(riley)).toHaveText("flyer.jpg");
  expect(new URL(riley.url()).searchParams.get("review")).toBe(reviewId);
  await expect(bar(riley)).toHaveAttribute("data-mine", "pending");
  await bar(riley).getByRole("button", { name: "Approve", exact: true }).click();
  await expectToast(riley, "Approved: flyer.jpg");
  await expect(bar(riley)).toHaveAttribute("data-mine", "approved");
  // Nothing else awaits Riley.
  await expect(bar(riley).getByTestId("review-next")).toBeDisabled();
});

test("the other reviewer requests changes with a note: it becomes a comment, and the first reviewer sees it live", async () => {
  // Riley watches the poster.
  await openViewer(riley, `/w/${workspaceId}/a/${posterId}?review=${reviewId}`, "poster.jpg");
  await expect(bar(riley)).toHaveAttribute("data-mine", "approved");

  // Morgan opens the poster without naming the review: the asset's own approval names it.
  await openViewer(morgan, `/w/${workspaceId}/a/${posterId}`, "poster.jpg");
  await expect(bar(morgan)).toBeVisible();
  await expect(bar(morgan)).toHaveAttribute("data-mine", "pending");
  await bar(morgan).getByRole("button", { name: "Request changes" }).click();
  const dialog = morgan.getByRole("dialog", { name: "Request changes" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Note").fill("Make the logo twice as big");
  await stoppedMoving(dialog);
  await shot(morgan, "member-note-desktop");
  await dialog.getByRole("button", { name: "Request changes" }).click();
  await expectToast(morgan, "Changes requested: poster.jpg");
  await expect(dialog).toBeHidden();
  await expect(bar(morgan)).toHaveAttribute("data-mine", "changes_requested");
  await expect(bar(morgan)).toHaveAttribute("data-status", "changes_requested");
  await expect(bar(morgan).getByTestId("decision-mine")).toContainText("You: Changes requested");
  // The note is a comment on the version, under Morgan's name.
  const note = morgan
    .getByTestId("comments-panel")
    .getByTestId("comment-thread")
    .filter({ hasText: "Make the logo twice as big" });
  await expect(note).toBeVisible();
  await expect(note).toContainText("Morgan");

  // Riley's viewer follows live: the poster's status, and the note in the comments.
  await expect(bar(riley)).toHaveAttribute("data-status", "changes_requested");
  await expect(riley.getByTestId("comments-panel").getByText("Make the logo twice as big")).toBeVisible();

  // The details tab keeps the record: the review, each decision with reviewer, version, time and note.
  await morgan.getByTestId("viewer-tab-details").click();
  const item = morgan.getByTestId("review-history-item").filter({ hasText: "Spring campaign" });
  await expect(item).toBeVisible();
  const decisions = item.getByTestId("review-history-decision");
  await expect(decisions).toHaveCount(2);
  await expect(decisions.nth(0)).toContainText("Riley");
  await expect(decisions.nth(0)).toContainText("Approved");
  await expect(decisions.nth(0)).toContainText("v1");
  await expect(decisions.nth(1)).toContainText("Morgan");
  await expect(decisions.nth(1)).toContainText("Changes requested");
  await expect(decisions.nth(1)).toContainText("Make the logo twice as big");
  await expect(item.getByRole("link", { name: "Spring campaign" })).toHaveAttribute(
    "href",
    `/w/${workspaceId}/reviews/${reviewId}`,
  );
  await shot(morgan, "member-history-desktop");

  // A phone: the bar fits, Approve a button and the other decisions in a menu.
  await morgan.setViewportSize(PHONE);
  await openViewer(morgan, `/w/${workspaceId}/a/${flyerId}?review=${reviewId}`, "flyer.jpg");
  await expect(bar(morgan)).toBeVisible();
  await expect(morgan.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  const box = (await bar(morgan).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  for (const control of [
    bar(morgan).getByRole("button", { name: "Approve", exact: true }),
    bar(morgan).getByTestId("decide-more"),
    bar(morgan).getByTestId("review-next"),
  ]) {
    const b = (await control.boundingBox())!;
    expect(b.x + b.width, "inside the screen").toBeLessThanOrEqual(PHONE.width);
  }
  await shot(morgan, "member-bar-phone");
  await bar(morgan).getByTestId("decide-more").click();
  await expect(morgan.getByRole("menuitem", { name: "Approve with changes" })).toBeVisible();
  await stoppedMoving(morgan.getByRole("menu"));
  await shot(morgan, "member-menu-phone");
  await morgan.getByRole("menuitem", { name: "Approve with changes" }).click();
  const phoneDialog = morgan.getByRole("dialog", { name: "Approve with changes" });
  await phoneDialog.getByLabel("Note").fill("Slightly warmer colours");
  await phoneDialog.getByRole("button", { name: "Approve with changes" }).click();
  await expectToast(morgan, "Approved with changes: flyer.jpg");
  await expect(bar(morgan)).toHaveAttribute("data-mine", "approved_with_changes");
  await morgan.setViewportSize(DESKTOP);
});

test("a new version puts the poster back to pending; both members approve it and stage 2 starts", async () => {
  // Riley watches the poster (its live stream open: what happens from then on reaches the viewer);
  // Casey sends its second round.
  const stream = riley.waitForResponse((r) => r.url().includes(`/workspaces/${workspaceId}/events`));
  await openViewer(riley, `/w/${workspaceId}/a/${posterId}?review=${reviewId}`, "poster.jpg");
  await stream;
  await expect(bar(riley)).toHaveAttribute("data-status", "changes_requested");
  await uploadVersion(casey, workspaceId, posterId, "poster.jpg", await roundPoster(2));
  // The viewer moves to v2 by itself; Riley's v1 approval is history, the decision pending again.
  await expect(riley.getByTestId("version-menu")).toHaveText("v2");
  await expect(bar(riley)).toHaveAttribute("data-mine", "pending");
  await expect(bar(riley)).toHaveAttribute("data-status", "in_review");
  await bar(riley).getByRole("button", { name: "Approve", exact: true }).click();
  await expectToast(riley, "Approved: poster.jpg");

  await openViewer(morgan, `/w/${workspaceId}/a/${posterId}?review=${reviewId}`, "poster.jpg");
  await expect(bar(morgan)).toHaveAttribute("data-mine", "pending");
  await bar(morgan).getByRole("button", { name: "Approve", exact: true }).click();
  await expectToast(morgan, "Approved: poster.jpg");
  // Stage 1 is complete for both assets: the record shows both members' decisions on v2.
  await morgan.getByTestId("viewer-tab-details").click();
  const decisions = morgan
    .getByTestId("review-history-item")
    .filter({ hasText: "Spring campaign" })
    .getByTestId("review-history-decision");
  await expect(decisions.filter({ hasText: "v2" })).toHaveCount(2);

  // The requester's page: stage 1 done, stage 2 active and asking the outside reviewer.
  await casey.goto(`/w/${workspaceId}/reviews/${reviewId}`);
  const page = casey.getByTestId("review-page");
  await expect(page.getByTestId("review-stage-1")).toContainText("Done", { timeout: 60_000 });
  await expect(page.getByTestId("review-stage-2")).toContainText("Active");
  await expect(page.getByTestId("review-stage-2")).toContainText("2 to decide");
  await expect(page.getByTestId("review-state")).toHaveText("Open");
});

test("the outside reviewer opens the link mailed when stage 2 starts, comments under their name and approves both", async ({
  browser,
}) => {
  const link = new URL(await linkFromMail(outsider, "/review/"));
  const pat = await newPage(browser);
  await pat.goto(link.pathname);
  await expect(pat.getByTestId("review-title")).toHaveText("Spring campaign", { timeout: 60_000 });
  await expect(pat.getByTestId("review-message")).toHaveText(
    "Please check the poster and the flyer before Friday's print run.",
  );
  await expect(pat.getByTestId("review-due")).toContainText("Due ");
  await expect(pat.getByTestId("review-reviewer-name")).toHaveText("Reviewing as Pat Outside");
  const cards = pat.getByTestId("review-asset");
  await expect(cards).toHaveCount(2);
  for (const name of ["poster.jpg", "flyer.jpg"])
    await expect(cards.filter({ hasText: name }).getByTestId("review-asset-mine")).toHaveText("Awaiting your decision");
  await expect(pat.getByTestId("review-progress")).toHaveText("0 of 2 approved");
  // No workspace navigation: the product mark is the page's only link.
  await expect(pat.getByRole("link")).toHaveCount(1);
  await expect(pat.getByRole("link")).toHaveAttribute("href", "/");
  await expect(cards.first().locator("img")).toHaveJSProperty("complete", true);
  await shot(pat, "outsider-page-desktop");
  // …and nothing of the workspace through the API either.
  const outside = await pat.request.get(`${baseUrl()}/api/v1/workspaces/${workspaceId}/assets/${flyerId}`);
  expect([401, 404]).toContain(outside.status());

  await cards.filter({ hasText: "flyer.jpg" }).click();
  await expect(viewerTitle(pat)).toHaveText("flyer.jpg");
  await expect(pat.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  await expect(bar(pat)).toHaveAttribute("data-mine", "pending");
  // The members' notes are comments on the version: Morgan approved the flyer with changes.
  const panel = pat.getByTestId("comments-panel");
  await expect(panel.getByText("Slightly warmer colours")).toBeVisible();
  const compose = pat.getByTestId("comment-compose").locator("textarea");
  await compose.fill("Colours look right on my screen");
  await compose.press("Enter");
  const mine = panel.getByTestId("comment-thread").filter({ hasText: "Colours look right on my screen" });
  await expect(mine).toBeVisible();
  await expect(mine).toContainText("Pat Outside");

  await bar(pat).getByRole("button", { name: "Approve", exact: true }).click();
  await expectToast(pat, "Approved: flyer.jpg");
  await expect(bar(pat)).toHaveAttribute("data-mine", "approved");
  // The last stage's rule is met: the flyer is approved.
  await expect(bar(pat)).toHaveAttribute("data-status", "approved");
  await shot(pat, "outsider-viewer-desktop");
  // The poster (its second round) awaits Pat next.
  await bar(pat).getByRole("button", { name: "Next asset in this review" }).click();
  await expect(viewerTitle(pat)).toHaveText("poster.jpg");
  await expect(bar(pat)).toHaveAttribute("data-mine", "pending");
  await bar(pat).getByRole("button", { name: "Approve", exact: true }).click();
  await expectToast(pat, "Approved: poster.jpg");
  await expect(bar(pat)).toHaveAttribute("data-status", "approved");
  await expect(bar(pat).getByTestId("review-next")).toBeDisabled();

  await pat.keyboard.press("Escape");
  await expect(pat.getByTestId("asset-viewer")).toBeHidden();
  await expect(cards.filter({ hasText: "flyer.jpg" }).getByTestId("review-asset-mine")).toContainText("You: Approved");
  await expect(pat.getByTestId("review-progress")).toHaveText("2 of 2 approved");

  // A phone: the page and the viewer's bar.
  await pat.setViewportSize(PHONE);
  await expect(cards.first().locator("img")).toHaveJSProperty("complete", true);
  await shot(pat, "outsider-page-phone");
  await cards.filter({ hasText: "poster.jpg" }).click();
  await expect(pat.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
  await expect(bar(pat)).toBeVisible();
  const box = (await bar(pat).boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  await shot(pat, "outsider-viewer-phone");
});

test("the requester sees Approved and downloads the report: every decision with its version, reviewer and note", async () => {
  await casey.goto(`/w/${workspaceId}/reviews/${reviewId}`);
  const page = casey.getByTestId("review-page");
  await expect(page.getByTestId("review-state")).toHaveText("Approved", { timeout: 60_000 });
  await expect(page.getByTestId("review-progress")).toHaveText("2 of 2 approved");
  await expect(page.getByTestId("review-stage-2")).toContainText("Done");
  await shot(casey, "requester-approved-desktop");

  const download = async (item: string) => {
    await page.getByTestId("review-report").click();
    const [file] = await Promise.all([
      casey.waitForEvent("download"),
      casey.getByRole("menuitem", { name: item }).click(),
    ]);
    return readFileSync((await file.path())!);
  };
  const csv = (await download("Download CSV")).toString("utf8");
  const decisionsOf = (name: string) =>
    csv.split("\n").filter((line) => line.startsWith("decision,") && line.includes(name));
  // The poster: Riley's and Morgan's decisions on v1 and on v2, then Pat's; none deleted.
  expect(decisionsOf("poster.jpg")).toHaveLength(5);
  expect(csv).toContain("Make the logo twice as big");
  expect(csv).toContain("Pat Outside");
  expect(csv).toMatch(/poster\.jpg,[^\n]*,2,[^\n]*Pat Outside/);
  const pdf = await download("Download PDF");
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");

  await casey.setViewportSize(PHONE);
  await expect(page.getByTestId("review-state")).toBeVisible();
  await shot(casey, "requester-approved-phone");
  await casey.setViewportSize(DESKTOP);
});
