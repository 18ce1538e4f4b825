import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { newOwner } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin } from "./support.ts";

/**
 * Issue 36, the audit log in the web: an ADMIN deletes a board, finds it in Settings → Audit log
 * (who, from where, the board's name then), filters to boards and a member, exports the CSV; a board's
 * own activity opens from its page for any member; a COMMENTER gets no Audit log tab. Phone: the log
 * fits 390 px.
 */
const shot = screenshots("audit");

test("an ADMIN reads who deleted a board, filters and exports the log; a board's activity; a commenter has no tab", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const owner = await newOwner(browser, "Audit studio");
  const ws = owner.workspaceId;
  const { page } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });
  const commenterCtx = await browser.newContext({ baseURL: baseUrl() });
  const commenter = await commenterCtx.newPage();
  await inviteAndJoin(page, commenter, ws, "COMMENTER", "Cody");

  const kept = await api<{ id: string }>(page, "POST", `/workspaces/${ws}/boards`, { name: "Campaign 2027" });
  const doomed = await api<{ id: string }>(page, "POST", `/workspaces/${ws}/boards`, { name: "Old drafts" });
  await api(page, "PUT", `/workspaces/${ws}/boards/${kept.id}`, { name: "Campaign 2027 — final" });

  // Delete a board in the page, as a user would.
  await page.goto(`/w/${ws}/b/${doomed.id}`);
  await page.getByRole("button", { name: "Board options" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Delete/ })
    .click();
  await expect(page).not.toHaveURL(new RegExp(doomed.id));

  await page.goto(`/w/${ws}/settings/details`);
  await page.getByRole("tab", { name: "Audit log" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${ws}/settings/audit$`));
  const rows = page.getByTestId("audit-event");
  const deleted = rows.filter({ hasText: "Board deleted" });
  await expect(deleted).toHaveCount(1);
  await expect(deleted).toContainText("“Old drafts”");
  await expect(deleted).toContainText("Olivia Owner");
  await expect(deleted.getByTestId("audit-ip")).toHaveText(/\d|:/);
  const renamed = rows.filter({ hasText: "Board changed" });
  await expect(renamed).toContainText("name: Campaign 2027 → Campaign 2027 — final");
  // Cody joined through the invitation; the owner was added when the workspace was made.
  await expect(rows.filter({ hasText: "Member added “Cody”" })).toContainText("role: COMMENTER");
  await shot(page, "log-1440");

  // Filters: boards only, then a member who did nothing to boards.
  await page.getByTestId("audit-filter-object").click();
  await page.getByRole("option", { name: "Board", exact: true }).click();
  await expect(page).toHaveURL(/object=board/);
  await expect(rows.filter({ hasNotText: /^Board/ })).toHaveCount(0);
  await expect(rows).toHaveCount(4); // two created, one changed, one deleted
  await page.getByTestId("audit-filter-member").click();
  await page.getByRole("option", { name: /Cody/ }).click();
  await expect(page.getByTestId("audit-empty")).toContainText("Nothing matches these filters");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(rows.first()).toBeVisible();

  // Export: the CSV holds the deletion.
  await page.getByTestId("audit-filter-object").click();
  await page.getByRole("option", { name: "Board", exact: true }).click();
  const download = page.waitForEvent("download");
  await page.getByTestId("audit-export").click();
  const file = await (await download).path();
  const csv = readFileSync(file, "utf8");
  expect(csv.split("\n")[0]).toContain("at,actor_kind,actor_id,actor_name,action");
  expect(csv).toContain("board.deleted");
  expect(csv).toContain("Old drafts");

  // A board's own activity, for any member: the commenter opens it from the board's page.
  await commenter.setViewportSize({ width: 390, height: 844 });
  await commenter.goto(`/w/${ws}/b/${kept.id}`);
  await commenter.getByTestId("board-activity").click();
  const drawer = commenter.getByTestId("board-activity-drawer");
  await expect(drawer.getByTestId("audit-event").filter({ hasText: "Board changed" })).toContainText(
    "Campaign 2027 — final",
  );
  await expect(drawer.getByTestId("audit-ip")).toHaveCount(0);
  await shot(commenter, "board-activity-390");

  // No tab, and the page says who reads it.
  await commenter.goto(`/w/${ws}/settings/details`);
  await expect(commenter.getByRole("tab", { name: "Audit log" })).toHaveCount(0);
  await commenter.goto(`/w/${ws}/settings/audit`);
  await expect(commenter.getByTestId("audit-admins-only")).toContainText("Only admins read the audit log.");

  // Phone: the log fits.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/w/${ws}/settings/audit`);
  await expect(rows.first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "log-390");
  await commenterCtx.close();
  await owner.context.close();
});
