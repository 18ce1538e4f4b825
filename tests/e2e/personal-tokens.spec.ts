import { expect, type Page, test } from "@playwright/test";
import { createBoard, jpeg, newOwner, settled, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, E2E_PASSWORD } from "./support.ts";
import { stoppedMoving } from "./waits.ts";

/**
 * Issue 36: a person creates a personal access token on the account page (the secret once), calls
 * the API with it (their workspaces, a write as themself, never a password change), sees its use,
 * revokes it (401 after). Then the history the audit log keeps of one asset (renamed, tagged, moved)
 * in the viewer's details, and of the board the token made, naming the token. Phone: cards.
 */
const shot = screenshots("personal-tokens");
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test("a token made on the account page acts as its user through the API until revoked; an asset's and a board's history", async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const owner = await newOwner(browser, "Token studio");
  const ws = owner.workspaceId;
  const { page } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.goto("/a/settings");
  const section = page.getByTestId("personal-tokens-section");
  await expect(section.getByRole("heading", { name: "Personal access tokens" })).toBeVisible();
  await expect(section.getByTestId("personal-tokens-empty")).toContainText("No tokens yet");
  await section.scrollIntoViewIfNeeded();
  await shot(page, "empty-1440");

  // Create: a name is required; 90 days and full access to start with.
  await section.getByRole("button", { name: "Create token" }).click();
  const form = page.getByRole("dialog", { name: "Create personal access token" });
  await settled(form);
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(form.getByText("Name is required")).toBeVisible();
  await form.getByRole("textbox", { name: "Name" }).fill("Backup script");
  await expect(form.getByTestId("token-expiry")).toHaveValue("90 days");
  await expect(form.getByRole("radio", { name: "Everything you can do" })).toBeChecked();
  await form.getByRole("radio", { name: "Only some things" }).check();
  await expect(form.getByRole("checkbox", { name: /^assets:read/ })).toBeChecked();
  await shot(page, "create-dialog-1440");
  await form.getByRole("radio", { name: "Everything you can do" }).check();
  await form.getByRole("button", { name: "Create token" }).click();

  const reveal = page.getByRole("dialog", { name: /Personal access token “Backup script” created/ });
  await expect(reveal.getByText("This is the only time the token is shown")).toBeVisible();
  const secret = (await reveal.getByTestId("personal-token-secret").textContent()) ?? "";
  expect(secret).toMatch(/^hgp_[A-Za-z0-9_-]{43}$/);
  await expect(reveal.getByTestId("personal-token-curl")).toContainText(
    `curl -H "Authorization: Bearer ${secret}" ${baseUrl()}/api/v1/workspaces`,
  );
  await settled(reveal);
  await shot(page, "secret-dialog-1440");
  await reveal.getByRole("button", { name: "Done" }).click();
  await expect(reveal).toBeHidden();
  expect(await page.content()).not.toContain(secret);

  // The token, with no cookie and no CSRF token: the user's workspaces, a write as them, no password change.
  const auth = { Authorization: `Bearer ${secret}` };
  const listed = await request.get(`${baseUrl()}/api/v1/workspaces`, { headers: auth });
  expect(listed.status(), await listed.text()).toBe(200);
  expect(await listed.text()).toContain(ws);
  const made = await request.post(`${baseUrl()}/api/v1/workspaces/${ws}/boards`, {
    headers: auth,
    data: { name: "Made by my script" },
  });
  expect(made.status(), await made.text()).toBe(201);
  const board = (await made.json()) as { id: string };
  const pw = await request.post(`${baseUrl()}/api/v1/users/change-password`, {
    headers: auth,
    data: { current_password: E2E_PASSWORD, new_password: "something else entirely" },
  });
  expect(pw.status()).toBe(403);
  expect((await pw.json()).detail).toContain("needs a signed-in session");

  await page.reload();
  const row = section.getByTestId("personal-token-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`${secret.slice(0, 12)}…`);
  await expect(row).toContainText("full");
  await expect(row.getByTestId("personal-token-state")).toHaveText("Active");
  await expect(row).not.toContainText("Never"); // used just now
  await section.scrollIntoViewIfNeeded();
  await shot(page, "desktop-1440");

  // A phone: one card a token, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(section.getByTestId("personal-tokens-table").locator("table")).toHaveCount(0);
  await expect(row).toBeVisible();
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);
  await row.scrollIntoViewIfNeeded();
  await shot(page, "phone-390");

  await row.getByRole("button", { name: "Revoke Backup script" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke personal access token" });
  await settled(confirm);
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByText("Personal access token revoked")).toBeVisible();
  await expect(row.getByTestId("personal-token-state")).toHaveText("Revoked");
  const refused = await request.get(`${baseUrl()}/api/v1/workspaces`, { headers: auth });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).detail).toBe("This personal access token has been revoked.");

  // The board the token made: its activity names the user and the token.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${ws}/b/${board.id}`);
  await page.getByTestId("board-activity").click();
  const drawer = page.getByTestId("board-activity-drawer");
  await expect(drawer.getByTestId("audit-event").first()).toContainText("(token “Backup script”)");
  await stoppedMoving(drawer.getByTestId("audit-event").first());
  await shot(page, "board-history-1440");

  // An asset's own history in the viewer's details: renamed, tagged, moved to a board; newest first.
  const target = await createBoard(page, ws, "Press kit");
  const asset = await uploadAsset(page, ws, "kit.jpg", await jpeg(3));
  await api(page, "PUT", `/workspaces/${ws}/assets/${asset}`, { name: "kit-final.jpg" });
  await api(page, "POST", `/workspaces/${ws}/assets/tags`, { asset_ids: [asset], tags: ["press"], mode: "add" });
  await api(page, "POST", `/workspaces/${ws}/assets/move`, { asset_ids: [asset], destination_id: target.id });
  await page.goto(`/w/${ws}/a/${asset}`);
  await page.getByTestId("viewer-tab-details").click();
  await page.getByTestId("show-history").click();
  const history = page.getByTestId("object-history");
  const events = history.getByTestId("audit-event");
  await expect(events.filter({ hasText: "kit.jpg → kit-final.jpg" })).toHaveCount(1);
  await expect(events.filter({ hasText: "tag: press" })).toHaveCount(1);
  await expect(events.filter({ hasText: "Board asset added" })).toContainText("Press kit");
  const texts = await events.allInnerTexts();
  const at = (part: string) => texts.findIndex((t) => t.includes(part));
  // Newest first: the move, then the tag, then the rename.
  expect(at("Board asset added")).toBeGreaterThanOrEqual(0);
  expect(at("Board asset added")).toBeLessThan(at("tag: press"));
  expect(at("tag: press")).toBeLessThan(at("→ kit-final.jpg"));
  await history.scrollIntoViewIfNeeded();
  await shot(page, "asset-history-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);
  await shot(page, "asset-history-390");
  await owner.context.close();
});
