import { expect, test } from "@playwright/test";
import { screenshot } from "./screenshots.ts";
import { baseUrl, signUpWithWorkspace } from "./support.ts";

/** The self-hosted default (issue 18): no payment provider, so billing is off and nothing is limited. */
test("with no payment provider the subscription page says billing is off and nothing is limited", async ({ page }) => {
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "nobilling" });
  await page.goto(`${baseUrl()}/w/${workspaceId}/settings/subscription`);
  const panel = page.getByTestId("settings-subscription");
  await expect(panel.getByText("Billing is off on this server")).toBeVisible();
  await expect(panel.getByText(/nothing is limited/)).toBeVisible();
  await expect(panel).not.toContainText("coming soon");
  await expect(page.getByTestId("usage-seats")).toContainText("1 (no limit)");
  await screenshot(page, "billing-0-off", { fullPage: true });
});
