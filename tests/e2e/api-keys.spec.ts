import { expect, type Page, test } from "@playwright/test";
import { audit, blocking, describe } from "./a11y-support.ts";
import { newOwner, settled } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { baseUrl, inviteAndJoin } from "./support.ts";
import { stoppedMoving } from "./waits.ts";

/**
 * Issue 36, API keys in the web: an ADMIN creates a key with assets:read in Settings → API keys and
 * sees its secret once; the secret lists the workspace's assets through the API (200), is refused a
 * write (403), and once revoked in the page is refused everything (401). A COMMENTER sees no tab, and
 * reaching the page tells them only admins manage keys. On a phone the keys are cards.
 */
const shot = screenshots("api-keys");
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test("an ADMIN creates a key, uses it through the API, revokes it; a COMMENTER sees no API keys tab", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await newOwner(browser, "Keys studio");
  const ws = owner.workspaceId;
  const { page } = owner;
  await owner.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The tab is there for an ADMIN; with no keys the page says what they are for.
  await page.goto(`/w/${ws}/settings/details`);
  await page.getByRole("tab", { name: "API keys" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${ws}/settings/api-keys$`));
  const empty = page.getByTestId("api-keys-empty");
  await expect(empty).toContainText("No API keys yet");
  await expect(empty.getByRole("link", { name: "Hangar API" })).toHaveAttribute("href", "/api/docs");
  await shot(page, "empty");

  // Create: a name is required; assets:read is checked to start with.
  await page.getByRole("button", { name: "Create API key" }).click();
  const form = page.getByRole("dialog", { name: "Create API key" });
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(form.getByText("Name is required")).toBeVisible();
  await form.getByRole("textbox", { name: "Name" }).fill("Website sync");
  await expect(form.getByRole("checkbox", { name: /^assets:read/ })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: /^admin/ })).not.toBeChecked();
  await shot(page, "create-dialog");
  await form.getByRole("button", { name: "Create key" }).click();

  // The secret, once: a warning, Copy, and a curl call with it.
  const reveal = page.getByRole("dialog", { name: /API key “Website sync” created/ });
  await expect(reveal.getByText("This is the only time the key is shown")).toBeVisible();
  const secret = (await reveal.getByTestId("api-key-secret").textContent()) ?? "";
  expect(secret).toMatch(/^hgr_[A-Za-z0-9_-]{40,}$/);
  await expect(reveal.getByTestId("api-key-curl")).toContainText(
    `curl -H "Authorization: Bearer ${secret}" -H "Content-Type: application/json" -d '{}' ${baseUrl()}/api/v1/workspaces/${ws}/assets`,
  );
  await reveal.getByRole("button", { name: "Copy key" }).click();
  await expect(page.getByText("API key copied to clipboard")).toBeVisible();
  await expect(reveal.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const findings = blocking(await audit(page, "api-key-secret-dialog"));
  expect(findings, describe(findings)).toEqual([]);
  await shot(page, "secret-dialog");
  await reveal.getByRole("button", { name: "Done" }).click();
  await expect(reveal).toBeHidden();

  // Gone from the page for good: the row shows only its prefix.
  const row = page.getByTestId("api-key-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`${secret.slice(0, 12)}…`);
  await expect(row).toContainText("assets:read");
  await expect(row.getByTestId("api-key-state")).toHaveText("Active");
  expect(await page.content()).not.toContain(secret);

  // The key through the API, with no cookie: a read answers, a write is refused.
  const auth = { Authorization: `Bearer ${secret}` };
  const assets = `${baseUrl()}/api/v1/workspaces/${ws}/assets`;
  const listed = await request.post(assets, { headers: auth, data: {} });
  expect(listed.status(), await listed.text()).toBe(200);
  const write = await request.post(`${baseUrl()}/api/v1/workspaces/${ws}/boards`, {
    headers: auth,
    data: { name: "From a key" },
  });
  expect(write.status(), await write.text()).toBe(403);
  const upload = await request.post(`${assets}/upload`, {
    headers: auth,
    data: { name: "x.jpg", size: 10, content_type: "image/jpeg" },
  });
  expect(upload.status(), await upload.text()).toBe(403);

  // Its use shows once the list is read again.
  await page.reload();
  await expect(row.getByText("Never")).toHaveCount(1); // the expiry; "last used" is now a moment
  await shot(page, "desktop");

  // A phone: one card a key, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("api-keys-table").locator("table")).toHaveCount(0);
  await expect(row).toBeVisible();
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);
  // The tabs, seven for an ADMIN (the audit log came after keys), stay on one line.
  const tabs = page.getByRole("tab");
  await expect(tabs).toHaveCount(7);
  const tabLines = () =>
    tabs.evaluateAll((els) => new Set(els.map((el) => Math.round(el.getBoundingClientRect().top))).size);
  await expect.poll(tabLines, { message: "the settings tabs on one line" }).toBe(1);
  await shot(page, "phone");

  // Revoke, confirmed; the same call is now refused as unauthenticated.
  await row.getByRole("button", { name: "Revoke Website sync" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke API key" });
  await expect(confirm).toContainText("Everything using it is refused from now on");
  await settled(confirm);
  await shot(page, "revoke-confirm-phone");
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("API key revoked")).toBeVisible();
  await expect(row.getByTestId("api-key-state")).toHaveText("Revoked");
  await expect(row.getByRole("button", { name: "Revoke Website sync" })).toHaveCount(0);
  const refused = await request.post(assets, { headers: auth, data: {} });
  expect(refused.status(), await refused.text()).toBe(401);
  await page.setViewportSize({ width: 1440, height: 900 });
  // The navbar slides back in after the resize: the screenshot waits for it to land.
  await expect(page.getByRole("navigation", { name: "Workspace" })).toBeInViewport({ ratio: 1 });
  await stoppedMoving(page.getByRole("navigation", { name: "Workspace" }));
  await shot(page, "revoked");

  // A COMMENTER: no tab, and the address itself says who manages keys.
  const other = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  const commenter = await other.newPage();
  await inviteAndJoin(page, commenter, ws, "COMMENTER");
  await commenter.goto(`/w/${ws}/settings/details`);
  await expect(commenter.getByRole("tab", { name: "Details" })).toBeVisible();
  await expect(commenter.getByRole("tab", { name: "API keys" })).toHaveCount(0);
  await commenter.goto(`/w/${ws}/settings/api-keys`);
  await expect(commenter.getByTestId("api-keys-admins-only")).toHaveText("Only admins manage API keys.");
  await expect(commenter.getByRole("tab", { name: "API keys" })).toHaveCount(0);
  await shot(commenter, "commenter");
  await other.close();
  await owner.context.close();
});
