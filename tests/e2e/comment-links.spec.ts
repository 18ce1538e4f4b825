import { readFileSync } from "node:fs";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { textPdf } from "../../apps/server/src/ops/demo-content.ts";
import { newOwner, uploadAsset } from "./assets-support.ts";
import { clipMp4 } from "./media-fixtures.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin } from "./support.ts";

/**
 * Issue 35: a mention's e-mail link lands on the comment (scrolled to, highlighted, on its page and
 * time, its thread unfolded for a reply); clicking a comment goes where it was made.
 */
const shot = screenshots("comment-links");

const pdf = () =>
  textPdf([1, 2, 3].map((n) => ({ title: `Brief page ${n}`, lines: ["Headline", "Body copy"], rgb: [0.2, 0.4, 0.7] })));

let owner: Awaited<ReturnType<typeof newOwner>>;
let casey: { context: BrowserContext; page: Page; email: string; id: string };
const ids: Record<string, string> = {};

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(240_000);
  owner = await newOwner(browser, "Mention studio");
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const email = await inviteAndJoin(owner.page, page, owner.workspaceId, "COMMENTER");
  const me = (await api<{ data: { id: string } }>(page, "GET", "/users/me")).data;
  casey = { context, page, email, id: me.id };
  ids.pdf = await uploadAsset(owner.page, owner.workspaceId, "brief.pdf", pdf(), undefined, "application/pdf");
  ids.clip = await uploadAsset(owner.page, owner.workspaceId, "teaser.mp4", clipMp4(6), undefined, "video/mp4");
});
test.afterAll(async () => {
  await owner?.context.close();
  await casey?.context.close();
});

const comment = (body: Record<string, unknown>) =>
  api<{ id: string }>(owner.page, "POST", `/workspaces/${owner.workspaceId}/comments`, {
    content_type: "asset",
    ...body,
  });
/** Enough comments that the list scrolls: the one a link names is not in view by itself. */
async function fillers(assetId: string, n: number, from: number) {
  for (let i = 0; i < n; i++) await comment({ object_id: assetId, text: `Note ${from + i}: looks fine`, page: 1 });
}

/** The link of the mention mail about comment `id` (the SMTP peer's mailbox). */
async function mentionLink(id: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      () => {
        for (const line of readFileSync(process.env.HANGAR_E2E_MAILBOX!, "utf8").split("\n").filter(Boolean)) {
          const m = JSON.parse(line) as { to: string; text: string };
          const found = m.to === casey.email ? new RegExp(`https?://\\S+\\?comment=${id}`).exec(m.text) : null;
          if (found) link = found[0];
        }
        return link !== "";
      },
      { timeout: 20_000, message: `the mention mail for ${id}` },
    )
    .toBe(true);
  return link;
}

const drawer = (page: Page) => page.getByTestId("comments-panel");
const item = (page: Page, id: string) => drawer(page).locator(`[data-comment-id="${id}"]`);

test("a mention's link lands on the comment on page 2: scrolled to, highlighted, its annotation open", async () => {
  const { page } = casey;
  await fillers(ids.pdf!, 12, 1);
  const target = await comment({
    object_id: ids.pdf,
    text: "@Casey the headline on this page needs more contrast",
    mentions: [casey.id],
    page: 2,
    annotation_type: "AREA",
    x: 10,
    y: 10,
    width: 40,
    height: 20,
  });
  await fillers(ids.pdf!, 12, 13);
  const link = await mentionLink(target.id);
  expect(new URL(link).pathname).toBe(`/w/${owner.workspaceId}/a/${ids.pdf}`);

  await page.goto(link);
  await expect(page.getByTestId("page-input")).toHaveValue("2");
  await expect(item(page, target.id)).toHaveAttribute("data-highlighted", "true");
  await expect(item(page, target.id)).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("annotation-area")).toHaveCount(1);
  await expect(page.getByTestId("annotation-popover")).toContainText("needs more contrast");
  // Only the one comment is highlighted; the first notes are scrolled out of view.
  await expect(drawer(page).locator("[data-highlighted]")).toHaveCount(1);
  await expect(drawer(page).getByText("Note 1: looks fine", { exact: true })).not.toBeInViewport();
  await shot(page, "landed-1440");

  // Clicking another comment (not its page badge) goes to its page; clicking this one comes back.
  const first = drawer(page).getByTestId("comment").filter({ hasText: "Note 1: looks fine" });
  await first.getByTestId("comment-text").click();
  await expect(page.getByTestId("page-input")).toHaveValue("1");
  await expect(first).toHaveAttribute("data-highlighted", "true");
  await item(page, target.id).getByTestId("comment-text").click();
  await expect(page.getByTestId("page-input")).toHaveValue("2");
  await expect(page.getByTestId("annotation-popover")).toContainText("needs more contrast");

  // A phone lands the same way, the comments sheet open on it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(link);
  const sheet = page.getByTestId("viewer-sheet");
  await expect(sheet.locator(`[data-comment-id="${target.id}"]`)).toHaveAttribute("data-highlighted", "true");
  await expect(sheet.locator(`[data-comment-id="${target.id}"]`)).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("page-input")).toHaveValue("2");
  await shot(page, "landed-390");
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("a mention in a reply unfolds its thread and lands on the reply, on the thread's page", async () => {
  const { page } = casey;
  const root = await comment({ object_id: ids.pdf, text: "Page three: swap the photo", page: 3 });
  const reply = await comment({
    object_id: ids.pdf,
    parent_id: root.id,
    text: "@Casey can you confirm the swap?",
    mentions: [casey.id],
  });
  await page.goto(await mentionLink(reply.id));
  await expect(page.getByTestId("page-input")).toHaveValue("3");
  await expect(item(page, reply.id)).toHaveAttribute("data-highlighted", "true");
  await expect(item(page, reply.id)).toBeInViewport({ ratio: 1 });
});

test("a mention on a video lands at its time", async () => {
  const { page } = casey;
  const target = await comment({
    object_id: ids.clip,
    text: "@Casey cut here",
    mentions: [casey.id],
    timestamp: 3,
  });
  await page.goto(await mentionLink(target.id));
  await expect(item(page, target.id)).toHaveAttribute("data-highlighted", "true");
  const video = page.getByTestId("viewer-video");
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(3, 1);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
});
