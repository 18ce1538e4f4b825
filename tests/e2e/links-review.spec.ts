import { expect, type Page, test } from "@playwright/test";
import { newOwner } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api } from "./support.ts";

/**
 * Settings → Share links (issue 28: one review table for both kinds of public link): the share links,
 * then the upload links, each turned off and deleted from its row; on a phone the tables scroll inside
 * their own box and the page does not.
 */
const shot = screenshots("links-review", { fullPage: true });

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test("an ADMIN reviews share links and upload links in one table each, on a desktop and on a phone", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const owner = await newOwner(browser, "Review studio");
  const ws = owner.workspaceId;
  const { page } = owner;
  const boardId = (await api<{ id: string }>(page, "POST", `/workspaces/${ws}/boards`, { name: "Press kit" })).id;
  await api(page, "GET", `/workspaces/${ws}/share/board/${boardId}?board_id=${boardId}`);
  await api(page, "PUT", `/workspaces/${ws}/share/board/${boardId}`, {
    board_id: boardId,
    password: "spring-2027!",
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  });
  await api(page, "POST", `/workspaces/${ws}/boards/${boardId}/file-requests`, {
    title: "Photos from the launch",
    max_files: 20,
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${ws}/settings/share-links`);
  const shareRow = page.getByTestId("share-links-table").getByTestId("share-link-row");
  const uploadRow = page.getByTestId("upload-links-table").getByTestId("upload-link-row");
  await expect(shareRow).toHaveCount(1);
  await expect(shareRow).toContainText("Press kit");
  await expect(shareRow.getByLabel("Password protected")).toBeVisible();
  await expect(page.getByText("1 link. Turning a link off or deleting it stops every page")).toBeVisible();
  await expect(uploadRow).toHaveCount(1);
  await expect(uploadRow).toContainText("Photos from the launch");
  await expect(uploadRow).toContainText("0 of 20");
  await expect(uploadRow).toContainText("Never");
  await expect(page.getByRole("heading", { name: "Upload links" })).toBeVisible();
  await shot(page, "desktop");

  // A phone: both tables keep their columns and scroll sideways inside their box; the page does not.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("share-links-table")).toBeVisible();
  // Measured once the layout has settled: right after the resize the shell's navbar is still sliding
  // out and a box can stick out for a frame (a real overflow stays, and fails).
  await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(390);
  await shot(page, "phone");
  await page.setViewportSize({ width: 1440, height: 900 });

  // Turning each off, in its row.
  const shareSwitch = shareRow.getByRole("switch", { name: "Disable the link of Press kit" });
  await shareSwitch.click({ force: true });
  await expect(shareRow.getByRole("switch", { name: "Enable the link of Press kit" })).not.toBeChecked();
  const uploadSwitch = uploadRow.getByRole("switch", { name: "Disable the upload link into Press kit" });
  await uploadSwitch.click({ force: true });
  await expect(uploadRow.getByRole("switch", { name: "Enable the upload link into Press kit" })).not.toBeChecked();
  await expect(uploadRow).toContainText("Disabled");

  // Deleting each: the row goes, the empty state says what the list is for.
  await uploadRow.getByRole("button", { name: "Delete the upload link into Press kit" }).click();
  await expect(page.getByText("Upload link deleted")).toBeVisible();
  await expect(page.getByTestId("upload-links-empty")).toContainText("No upload links yet");
  await shareRow.getByRole("button", { name: "Delete the link of Press kit" }).click();
  await expect(page.getByText("Share link deleted")).toBeVisible();
  await expect(page.getByTestId("share-links-empty")).toContainText("No share links yet");
  await owner.context.close();
});
