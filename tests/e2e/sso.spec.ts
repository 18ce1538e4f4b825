import { type Browser, expect, type Page, test } from "@playwright/test";
import { startOidcProvider, type TestOidcProvider } from "../../apps/server/test/oidc-provider.ts";
import { type E2EServer, startE2EServer } from "./hangar-server.ts";
import { screenshots } from "./screenshots.ts";
import { api, inviteAndJoin, uniqueEmail } from "./support.ts";

/**
 * Single sign-on (issue 36) in the browser, on a Hangar server of its own pointed at a real OpenID
 * provider (oidc-provider) started here on a loopback port: the person signs in on the provider's
 * own login page and comes back signed in; a workspace requiring SSO turns a password session away
 * with a button that goes through the provider and back to the page.
 */
const shot = screenshots("sso", { fullPage: true });
const BUTTON = "Sign in with Example SSO";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

let idp: TestOidcProvider | undefined;
let server: E2EServer | undefined;
let previousUrl: string | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  server = await startE2EServer({
    label: "sso",
    env: async (baseUrl) => {
      // Started (again, on a retry with another port) knowing Hangar's callback URL.
      await idp?.close();
      idp = await startOidcProvider({ redirectUris: [`${baseUrl}/api/v1/auth/sso/callback`] });
      return {
        ...idp.env,
        OIDC_ALLOWED_DOMAINS: "example.test",
        OIDC_BUTTON_TEXT: BUTTON,
        SMTP_URL: `smtp://127.0.0.1:${process.env.HANGAR_E2E_SMTP_PORT}`,
      };
    },
  });
  previousUrl = process.env.HANGAR_E2E_URL;
  process.env.HANGAR_E2E_URL = server.baseUrl;
});

test.afterAll(async () => {
  process.env.HANGAR_E2E_URL = previousUrl;
  await server?.stop();
  await idp?.close();
});

/** A person at the provider: their login there (the subject) and address. */
function providerAccount(email: string, verified = true) {
  const login = `p${Math.random().toString(36).slice(2, 10)}`;
  idp!.accounts.set(login, { email, email_verified: verified, given_name: "Sam", family_name: "Single" });
  return login;
}

/** On the provider's own page (its devInteractions form): the login and a password, then its button. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${idp!.issuer}/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

let admin: Page;
let workspaceId: string;

test("signs in through the provider's own login page, the account made on first sign-in", async ({
  browser,
}: {
  browser: Browser;
}) => {
  admin = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  const email = uniqueEmail("sso-admin");
  const login = providerAccount(email);
  await admin.goto(`${server!.baseUrl}/a/login`);
  const button = admin.getByRole("link", { name: BUTTON });
  await expect(button).toBeVisible();
  await expect(admin.getByLabel("E-mail")).toBeVisible(); // passwords still work here
  await shot(admin, "login-desktop");
  await button.click();
  await expect(admin.locator('input[name="login"]')).toBeVisible();
  await shot(admin, "provider-login-page");
  await signInAtProvider(admin, login);
  await expect(admin).toHaveURL(new RegExp(`^${server!.baseUrl}/w`));
  const me = await api<{ data: { email: string; first_name: string } }>(admin, "GET", "/users/me");
  expect(me.data).toMatchObject({ email, first_name: "Sam" });
  workspaceId = (await api<{ id: string }>(admin, "POST", "/workspaces", { name: "Example Corp" })).id;
});

test("an ADMIN requires SSO; a password member is turned away and gets in through the provider", async ({
  browser,
}: {
  browser: Browser;
}) => {
  const member = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  const memberEmail = await inviteAndJoin(admin, member, workspaceId, "EDITOR", "Morgan");

  await admin.goto(`${server!.baseUrl}/w/${workspaceId}/settings/details`);
  const setting = admin.getByTestId("workspace-sso-setting");
  await expect(setting).toContainText(`Members open this workspace only after signing in with “${BUTTON}”.`);
  await expect(setting).toContainText("Invitations go only to addresses at @example.test.");
  await setting.getByRole("switch", { name: "Require single sign-on" }).click();
  await expect(admin.getByText("Members must now sign in with single sign-on.")).toBeVisible();
  await expect(setting.getByRole("switch", { name: "Require single sign-on" })).toBeChecked();
  await shot(admin, "setting-desktop");

  // The member's password session is refused with the rule's text and a way in.
  await member.goto(`${server!.baseUrl}/w/${workspaceId}`);
  const refused = member.getByTestId("sso-required");
  await expect(refused).toContainText(`This workspace requires single sign-on: sign in again with “${BUTTON}”.`);
  await shot(member, "required-desktop");
  await member.setViewportSize(PHONE);
  await shot(member, "required-phone");
  await member.setViewportSize(DESKTOP);
  await refused.getByRole("link", { name: BUTTON }).click();
  await signInAtProvider(member, providerAccount(memberEmail));
  await expect(member).toHaveURL(`${server!.baseUrl}/w/${workspaceId}`);
  await expect(member.getByTestId("sso-required")).toHaveCount(0);
  await expect(member.getByRole("heading", { name: "Example Corp" }).first()).toBeVisible();
  await shot(member, "member-in-desktop");
});

test("a refused sign-in comes back to the login page with the reason", async ({ browser }: { browser: Browser }) => {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  await page.goto(`${server!.baseUrl}/a/login`);
  await expect(page.getByRole("link", { name: BUTTON })).toBeVisible();
  await shot(page, "login-phone");
  await page.getByRole("link", { name: BUTTON }).click();
  const email = uniqueEmail("unverified");
  await signInAtProvider(page, providerAccount(email, false));
  await expect(page).toHaveURL(/\/a\/login\?sso_error=/);
  await expect(page.getByTestId("sso-error")).toHaveText(
    `The provider has not verified ${email}. Verify it there, then sign in again.`,
  );
  await shot(page, "error-phone");
});
