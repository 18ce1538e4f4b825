import { expect, test } from "@playwright/test";
import { createBoard, jpeg, newOwner, uploadAsset } from "./assets-support.ts";
import { screenshot } from "./screenshots.ts";

/** The workspace home (issue #13): first steps when empty, then recent uploads and boards. */
test("home: first steps in an empty workspace, then recent uploads that open in the viewer", async ({ browser }) => {
  const { context, page, workspaceId } = await newOwner(browser, "Home studio");
  await page.goto(`/w/${workspaceId}`);
  await expect(page.getByTestId("home-greeting")).toContainText("Welcome, Olivia");
  await expect(page.getByTestId("first-steps")).toContainText("Upload files");
  await expect(page.getByTestId("first-steps")).toContainText("Invite your team");
  await screenshot(page, "home-empty");

  const board = await createBoard(page, workspaceId, "Lookbook");
  await uploadAsset(page, workspaceId, "cover.jpg", await jpeg(2), board.id);
  await page.reload();
  await expect(page.getByTestId("home-greeting")).toContainText("Welcome back, Olivia");
  await expect(page.getByTestId("first-steps")).toHaveCount(0);
  await expect(page.getByTestId("recent-asset")).toHaveCount(1);
  await expect(page.getByRole("link", { name: "All assets 1 asset" })).toBeVisible();
  await expect(page.getByTestId("home-boards")).toContainText("Lookbook");
  await screenshot(page, "home-recent");

  await page.getByTestId("recent-asset").click();
  await expect(page.getByTestId("asset-viewer")).toHaveAttribute("data-mode", "page");
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}$`));
  await context.close();
});
