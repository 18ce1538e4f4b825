import { expect, type Page, test } from "@playwright/test";
import { screenshot } from "./screenshots.ts";
import { baseUrl, E2E_PASSWORD, linkFromMail, signUpWithWorkspace, uniqueEmail } from "./support.ts";

const PASSWORD = "a long enough password";
const shot = (page: Page, name: string) => screenshot(page, name, { fullPage: true });

test("register, verify by mail, create a workspace, invite a second user who joins with the invited role", async ({
  browser,
}) => {
  const owner = await browser.newContext({ baseURL: baseUrl() });
  const page = await owner.newPage();
  const ownerEmail = uniqueEmail("owner");

  await page.goto("/a/register");
  await page.getByLabel("First name").fill("Olivia");
  await page.getByLabel("Last name").fill("Owner");
  await page.getByLabel("E-mail").fill(ownerEmail);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  const confirm = page.getByLabel("Confirm password");
  if (await confirm.count()) await confirm.fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/a\/awaiting-verification/);
  await expect(page.getByText(ownerEmail).first()).toBeVisible();

  // The real mail, through the real SMTP peer: follow its link.
  await page.goto(await linkFromMail(ownerEmail, "/a/verify-email/"));
  await expect(page).toHaveURL(/\/w\/new/);
  await page.getByLabel("Workspace name").fill("Northwind Studio");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page).toHaveURL(/\/w\/[0-9a-f-]{36}$/);
  const workspaceUrl = page.url();
  await expect(page.getByRole("heading", { name: "Northwind Studio" })).toBeVisible();
  await expect(page.getByText("Northwind Studio").first()).toBeVisible();
  await shot(page, "workspace-home");

  await page.goto(`${workspaceUrl}/members`);
  await expect(page.getByRole("heading", { name: "Members" })).toBeVisible();
  await expect(page.getByRole("cell", { name: ownerEmail, exact: true })).toBeVisible();
  const inviteeEmail = uniqueEmail("invitee");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Invite member" });
  await dialog.getByLabel("E-mail").fill(inviteeEmail);
  await dialog.getByLabel("Role").click();
  await page.getByRole("option", { name: "Commenter" }).click();
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("cell", { name: inviteeEmail, exact: true })).toBeVisible();
  await shot(page, "members");

  // The invitee, in a browser of their own, registers through the link in their mail.
  const invitee = await browser.newContext({ baseURL: baseUrl() });
  const p2 = await invitee.newPage();
  await p2.goto(await linkFromMail(inviteeEmail, "/a/invite/"));
  await expect(p2.getByText("Northwind Studio").first()).toBeVisible();
  await expect(p2.getByLabel("E-mail")).toHaveValue(inviteeEmail);
  await p2.getByLabel("First name").fill("Ivan");
  await p2.getByLabel("Password", { exact: true }).fill(PASSWORD);
  const confirm2 = p2.getByLabel("Confirm password");
  if (await confirm2.count()) await confirm2.fill(PASSWORD);
  await shot(p2, "invite");
  await p2.getByRole("button", { name: "Create account" }).click();
  await expect(p2).toHaveURL(workspaceUrl);
  await expect(p2.getByText("Commenter").first()).toBeVisible();

  // The owner sees the new member with the invited role.
  await page.reload();
  const row = page.getByRole("row").filter({ hasText: inviteeEmail });
  await expect(row.locator("input").first()).toHaveValue("Commenter");
  await owner.close();
  await invitee.close();
});

test("login page: wrong password shows the server's message; signed-out app routes go to login", async ({ page }) => {
  await page.goto(`${baseUrl()}/w/new`);
  await expect(page).toHaveURL(/\/a\/login\?next=/);
  await page.getByLabel("E-mail").fill(uniqueEmail("nobody"));
  await page.getByLabel("Password", { exact: true }).fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid e-mail or password.")).toBeVisible();
  await shot(page, "login-error");
  await page.goto(`${baseUrl()}/no/such/page`);
  await expect(page.getByText(/not found/i).first()).toBeVisible();
});

test("change e-mail asks for the current password, then waits for the new address to confirm", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const { email } = await signUpWithWorkspace(page);
  await page.goto("/a/settings");
  const form = page.getByTestId("change-email-form");
  const next = uniqueEmail("moved");
  await form.getByLabel("New e-mail").fill(next);
  await form.getByLabel("Current password").fill("not the password");
  await form.getByRole("button", { name: "Change e-mail" }).click();
  await expect(form.getByText("Incorrect password")).toBeVisible();
  await form.getByLabel("Current password").fill(E2E_PASSWORD);
  await form.getByRole("button", { name: "Change e-mail" }).click();
  await expect(page.getByTestId("pending-email")).toContainText(next);
  // The old address is told; the new one confirms.
  await linkFromMail(email, "/a/forgot-password");
  await page.goto(await linkFromMail(next, "/a/verify-email-change/"));
  // The link page confirms with a call of its own: leaving before it answers would cancel it.
  await expect(page.getByText("E-mail changed")).toBeVisible();
  await page.goto("/a/settings");
  await expect(page.getByTestId("pending-email")).toHaveCount(0);
  await expect(page.getByTestId("email-section")).toContainText(`You sign in with ${next}`);
  await context.close();
});
