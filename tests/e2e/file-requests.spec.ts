import { expect, test } from "@playwright/test";
import { jpeg, newOwner } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, boardMenu } from "./support.ts";
import { stoppedMoving } from "./waits.ts";

/** Request files (issue #17): an upload-only link for a board; a visitor without an account sends files. */
const shot = screenshots("requests");

test("an owner asks for files; a visitor sends two, the third is refused; pausing the link ends the page", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const owner = await newOwner(browser, "Request studio");
  const ws = owner.workspaceId;
  const boardId = (await api<{ id: string }>(owner.page, "POST", `/workspaces/${ws}/boards`, { name: "Inbox" })).id;
  const { page } = owner;

  // The board menu: "Request files…" opens the dialog with the form (no links yet).
  await page.goto(`/w/${ws}/b/all`);
  const row = page.getByTestId("boards-panel").getByRole("treeitem", { name: "Inbox", exact: true });
  await boardMenu(page, row, "Request files…");
  const dialog = page.getByRole("dialog", { name: /Request files into/ });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Title").fill("Send us the wedding photos");
  await dialog.getByLabel("Message").fill("JPEGs please, by Friday.");
  await dialog.getByLabel("Files at most").fill("2");
  await shot(page, "dialog-form");
  await dialog.getByRole("button", { name: "Create link" }).click();
  const link = dialog.getByTestId("file-request");
  await expect(link).toBeVisible();
  await expect(link.getByText("Open", { exact: true })).toBeVisible();
  const url = await link.getByRole("textbox", { name: "Upload link" }).inputValue();
  expect(url).toMatch(/\/r\/[\w-]{43}$/);

  // A visitor with no account: the page, the name, two files.
  const visitor = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  const v = await visitor.newPage();
  await v.goto(url);
  await expect(v.getByRole("heading", { name: "Send us the wedding photos" })).toBeVisible();
  await expect(v.getByText("JPEGs please, by Friday.")).toBeVisible();
  await expect(v.getByText("2 of 2 files left", { exact: false })).toBeVisible();
  await shot(v, "page-empty");
  await v.getByLabel("Your name (optional)").fill("Robin");
  await v.getByTestId("request-input").setInputFiles([
    { name: "first-dance.jpg", mimeType: "image/jpeg", buffer: await jpeg(11) },
    { name: "cake.jpg", mimeType: "image/jpeg", buffer: await jpeg(12) },
  ]);
  const sent = v.getByTestId("request-sent");
  await expect(sent.getByText("first-dance.jpg")).toBeVisible({ timeout: 30_000 });
  await expect(sent.getByText("cake.jpg")).toBeVisible();
  await expect(v.getByText("0 of 2 files left", { exact: false })).toBeVisible();
  // Past the cap: refused before sending, in the server's words.
  await v
    .getByTestId("request-input")
    .setInputFiles([{ name: "one-more.jpg", mimeType: "image/jpeg", buffer: await jpeg(13) }]);
  await expect(v.getByRole("alert")).toHaveText("This upload link takes at most 2 files, and they have all been sent.");
  await shot(v, "page-sent");

  // Another visitor (another browser) sees nothing of Robin's files.
  const other = await browser.newContext({ baseURL: baseUrl() });
  const o = await other.newPage();
  await o.goto(url);
  await expect(o.getByText("Files you send show here. Only you see this list.")).toBeVisible();
  await other.close();

  // The owner finds them in the board, and the link counts them.
  // (listed once processed)
  await expect
    .poll(
      async () =>
        (
          await api<{ data: Array<{ name: string }> }>(owner.page, "POST", `/workspaces/${ws}/assets`, {
            board_id: boardId,
          })
        ).data
          .map((a) => a.name)
          .sort(),
      { timeout: 60_000 },
    )
    .toEqual(["cake.jpg", "first-dance.jpg"]);
  await page.reload();
  await boardMenu(page, row, "Request files…");
  await expect(link.getByText("2 of 2 files received", { exact: false })).toBeVisible();
  await expect(link.getByText("Full", { exact: true })).toBeVisible();
  await link.getByRole("button", { name: "Show received files (2)" }).click();
  await expect(link.getByTestId("received-files")).toContainText("Robin");
  await expect(link.getByTestId("received-files")).toContainText("first-dance.jpg");
  await stoppedMoving(link.getByTestId("received-files")); // the list's opening transition, for the screenshot
  await shot(page, "dialog-full");

  // Settings → Share links lists it for the ADMIN's review, below the share links.
  await page.keyboard.press("Escape");
  await page.goto(`/w/${ws}/settings/share-links`);
  const reviewRow = page.getByTestId("upload-link-row");
  await expect(reviewRow).toHaveCount(1);
  await expect(reviewRow).toContainText("Inbox");
  await expect(reviewRow).toContainText("2 of 2");
  await shot(page, "settings-review");
  await page.goto(`/w/${ws}/b/all`);
  await boardMenu(page, row, "Request files…");

  // Pausing the link ends the visitor's page.
  await link.getByRole("switch", { name: "Active" }).click({ force: true });
  await expect(link.getByText("Disabled", { exact: true })).toBeVisible();
  await v.reload();
  await expect(v.getByTestId("shared-error")).toContainText("Link has expired or is no longer valid");
  await shot(v, "page-ended");

  // A phone: the page fits.
  await v.setViewportSize({ width: 390, height: 800 });
  await link.getByRole("switch", { name: "Active" }).click({ force: true });
  await expect(link.getByText("Full", { exact: true })).toBeVisible();
  await v.reload();
  await expect(v.getByTestId("request-page")).toBeVisible();
  const width = await v.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await shot(v, "phone");
  await visitor.close();
  await owner.context.close();
});
