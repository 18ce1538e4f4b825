import { truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { type FakeStripe, startFakeStripe } from "../../apps/server/test/fake-stripe.ts";
import { type E2EServer, startE2EServer } from "./hangar-server.ts";
import { screenshots } from "./screenshots.ts";
import { inviteAndJoin, signUpWithWorkspace } from "./support.ts";

/**
 * Subscription and checkout (issue 18) in the browser, on a Hangar server of its own with billing on
 * (the shared one runs the default: billing off), talking through the Stripe SDK to the test tree's
 * fake of Stripe, whose hosted checkout page the browser pays on.
 */
const shot = screenshots("billing", { fullPage: true });

let fake: FakeStripe;
let server: E2EServer | undefined;
let previousUrl: string | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  fake = await startFakeStripe({
    prices: [
      { lookup_key: "hangar_team_month", amount: 1500, interval: "month" },
      { lookup_key: "hangar_team_year", amount: 15000, interval: "year" },
      { lookup_key: "hangar_business_month", amount: 4500, interval: "month" },
      { lookup_key: "hangar_business_year", amount: 45000, interval: "year" },
    ],
  });
  let base = "";
  // The fake sends its events the way Stripe does: signed POSTs to the public webhook.
  fake.setDeliver(async (payload, signature) => {
    const res = await fetch(`${base}/api/v1/billing/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
    return res.status;
  });
  server = await startE2EServer({
    label: "billing",
    env: () => ({ ...fake.env, SMTP_URL: `smtp://127.0.0.1:${process.env.HANGAR_E2E_SMTP_PORT}` }),
  });
  base = server.baseUrl;
  // The helpers in support.ts talk to HANGAR_E2E_URL: this file's server, until it ends.
  previousUrl = process.env.HANGAR_E2E_URL;
  process.env.HANGAR_E2E_URL = base;
});

test.afterAll(async () => {
  process.env.HANGAR_E2E_URL = previousUrl;
  await server?.stop();
  await fake?.close();
});

let admin: Page;
let workspaceId: string;

async function payOnCheckout(page: Page, card: string) {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay and subscribe" }).click();
}

test("an ADMIN upgrades through checkout; a declined card changes nothing; the webhook makes it active", async ({
  browser,
}: {
  browser: Browser;
}) => {
  admin = await (await browser.newContext()).newPage();
  ({ workspaceId } = await signUpWithWorkspace(admin, { prefix: "billing" }));
  const base = process.env.HANGAR_E2E_URL as string;
  await admin.goto(`${base}/w/${workspaceId}/settings/subscription`);
  await expect(admin.getByRole("heading", { name: "Free plan" })).toBeVisible();
  await expect(admin.getByTestId("subscription-renewal")).toHaveText("No paid subscription");
  await expect(admin.getByTestId("usage-seats")).toContainText("1 of 3");
  await shot(admin, "1-free");

  await admin.getByTestId("choose-team").click();
  await expect(admin.getByTestId("checkout-price")).toHaveText(/15\.00 per month/);
  await shot(admin, "2-checkout");
  await admin.getByRole("button", { name: "Continue to payment" }).click();
  await admin.waitForURL(/\/pay\/cs_/);

  await payOnCheckout(admin, "4000 0000 0000 0002");
  await expect(admin.getByRole("alert")).toHaveText("Your card was declined.");
  await shot(admin, "3-declined");
  const afterDecline = await admin.request.get(`${base}/api/v1/workspaces/${workspaceId}/billing`);
  expect(await afterDecline.json()).toMatchObject({ status: "none", plan: { key: "free" } });

  await payOnCheckout(admin, "4242 4242 4242 4242");
  await admin.waitForURL(/\/subscription\/success\?session_id=cs_/);
  await expect(admin.getByRole("heading", { name: "Your subscription is active" })).toBeVisible();
  await shot(admin, "4-success");

  await admin.getByRole("link", { name: "Go to the subscription" }).click();
  await expect(admin.getByRole("heading", { name: "Team plan" })).toBeVisible();
  await expect(admin.getByTestId("subscription-status")).toHaveText("Active");
  await expect(admin.getByTestId("subscription-renewal")).toContainText("Renews on");
  await expect(admin.getByTestId("usage-seats")).toContainText("1 of 15");
  await shot(admin, "5-team");
});

test("on the Free plan, a file over its upload size is refused with a way to upgrade", async () => {
  // Still Free here? No: the first test upgraded. A workspace of its own, on Free.
  const page = await (await admin.context().browser()!.newContext()).newPage();
  const { workspaceId: freeWs } = await signUpWithWorkspace(page, { prefix: "billing-free" });
  const base = process.env.HANGAR_E2E_URL as string;
  // 101 MiB, sparse on disk: refused when announced, so no byte is sent.
  const big = path.join(server!.dir, "master.mov");
  writeFileSync(big, "");
  truncateSync(big, 101 * 1024 * 1024);
  await page.goto(`${base}/w/${freeWs}/b/all`);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await page.getByTestId("upload-files-input").setInputFiles(big);
  const error = page.getByTestId("upload-item-error");
  await expect(error).toContainText("402");
  const upgrade = error.getByRole("link", { name: "Upgrade the plan" });
  await expect(upgrade).toBeVisible();
  await shot(page, "9-upload-refused");
  await upgrade.click();
  await expect(page).toHaveURL(new RegExp(`/w/${freeWs}/settings/subscription$`));
  await expect(page.getByRole("heading", { name: "Free plan" })).toBeVisible();
  await page.context().close();
});

test("the ADMIN changes plan with the proration preview", async () => {
  await admin.getByTestId("choose-business").click();
  const preview = admin.getByTestId("proration-preview");
  await expect(preview).toContainText("Due now:");
  await expect(preview).toContainText("Next invoice: $45.00");
  await shot(admin, "6-change-preview");
  await admin.getByRole("button", { name: "Confirm the change" }).click();
  await expect(admin.getByRole("heading", { name: "Business plan" })).toBeVisible();
  await expect(admin.getByTestId("usage-seats")).toContainText("1 of 100");
});

test("a failed payment shows the past-due banner with the date limits return to Free", async () => {
  const sub = [...fake.store.subscriptions.values()].find(
    (s) => (s.metadata as { workspace_id?: string }).workspace_id === workspaceId,
  );
  expect(sub).toBeDefined();
  fake.failRenewal(sub?.id as string);
  await fake.flush();
  await admin.reload();
  const banner = admin.getByTestId("past-due-banner");
  await expect(banner).toContainText("the limits return to the free plan's on");
  await expect(admin.getByTestId("subscription-status")).toHaveText("Past due");
  await shot(admin, "7-past-due");
});

test("an EDITOR sees the plan read-only", async ({ browser }: { browser: Browser }) => {
  const editor = await (await browser.newContext()).newPage();
  await inviteAndJoin(admin, editor, workspaceId, "EDITOR");
  await editor.goto(`${process.env.HANGAR_E2E_URL}/w/${workspaceId}/settings/subscription`);
  await expect(editor.getByRole("heading", { name: "Business plan" })).toBeVisible();
  await expect(editor.getByText("Only admins can change the subscription.")).toBeVisible();
  await expect(editor.getByRole("button", { name: "Cancel at period end" })).toHaveCount(0);
  await expect(editor.getByTestId("choose-team")).toHaveCount(0);
  await expect(editor.getByTestId("past-due-banner")).toHaveCount(0);
  await shot(editor, "8-editor");
});
