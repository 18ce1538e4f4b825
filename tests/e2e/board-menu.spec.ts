import { expect, type Page, test } from "@playwright/test";
import { createBoard, newOwner, settled } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";

/** Issue 35: a board's menu is the same wherever it is opened (the tree's row, the board page's ⋯). */
const shot = screenshots("board-menu");

const menuItems = async (page: Page) => {
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  return menu.getByRole("menuitem").allInnerTexts();
};

test("the board page's menu offers what the tree row's menu does, Request files… and Share included", async ({
  browser,
}) => {
  const { context, page, workspaceId } = await newOwner(browser, "Menu studio");
  const board = await createBoard(page, workspaceId, "Campaign");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${workspaceId}/b/${board.id}`);
  await expect(page.getByTestId("board-page")).toBeVisible();

  const row = page.getByTestId("boards-panel").getByRole("treeitem", { name: "Campaign", exact: true });
  await row.hover();
  await row.getByRole("button", { name: "Board actions" }).click();
  const inTree = await menuItems(page);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toBeHidden();

  await page.getByRole("button", { name: "Board options" }).click();
  const onPage = await menuItems(page);
  expect(onPage).toEqual(inTree);
  expect(onPage).toEqual(["Rename", "Move to…", "Share…", "Request files…", "Request review…", "Download…", "Delete"]);
  await shot(page, "page-menu-1440");

  await page.getByRole("menuitem", { name: "Request files…" }).click();
  const request = page.getByRole("dialog", { name: "Request files into “Campaign”" });
  await settled(request);
  await page.keyboard.press("Escape");
  await expect(request).toBeHidden();

  await page.getByRole("button", { name: "Board options" }).click();
  await page.getByRole("menuitem", { name: "Share…" }).click();
  await expect(page.getByRole("dialog", { name: "Share Board" })).toBeVisible();
  await page.keyboard.press("Escape");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Board options" }).click();
  expect(await menuItems(page)).toEqual(inTree);
  await shot(page, "page-menu-390");
  await context.close();
});
