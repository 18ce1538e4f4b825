import { expect, type Locator, type Page, test } from "@playwright/test";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, boardMenu, inviteAndJoin, signUpWithWorkspace } from "./support.ts";

interface BoardJson {
  id: string;
  name: string;
  parent_id: string | null;
  child_count: number;
  children?: BoardJson[];
}

const shot = screenshots("boards", { fullPage: true });

/** The server's tree as nested names: "Campaigns(Spring,Archive)". */
async function serverTree(page: Page, workspaceId: string): Promise<string> {
  const tree = await api<BoardJson[]>(page, "GET", `/workspaces/${workspaceId}/boards?recursive=true`);
  const show = (list: BoardJson[]): string =>
    list.map((b) => (b.children?.length ? `${b.name}(${show(b.children)})` : b.name)).join(",");
  return show(tree);
}

async function findBoard(page: Page, workspaceId: string, name: string): Promise<BoardJson> {
  const tree = await api<BoardJson[]>(page, "GET", `/workspaces/${workspaceId}/boards?recursive=true`);
  const stack = [...tree];
  while (stack.length) {
    const b = stack.pop()!;
    if (b.name === name) return b;
    stack.push(...(b.children ?? []));
  }
  throw new Error(`no board named ${name}`);
}

const panel = (page: Page) => page.getByTestId("boards-panel");
const tree = (page: Page) => panel(page).getByRole("tree", { name: "Boards" });
const row = (page: Page, name: string) => tree(page).getByRole("treeitem", { name, exact: true });

/** The visible rows, top to bottom, as "level:name". */
async function visibleRows(page: Page): Promise<string[]> {
  return tree(page)
    .getByRole("treeitem")
    .evaluateAll((els) =>
      els
        .map((el) => ({
          top: Number.parseFloat((el as HTMLElement).style.top),
          text: `${el.getAttribute("aria-level")}:${el.getAttribute("aria-label")}`,
        }))
        .sort((a, b) => a.top - b.top)
        .map((r) => r.text),
    );
}

const toasts = (page: Page) => page.locator(".mantine-Notification-root");

/** A green or red toast with this text. */
async function expectToast(page: Page, text: string) {
  await expect(toasts(page).filter({ hasText: text }).last()).toBeVisible();
}

/** Closes every toast, so the next expectToast cannot be satisfied by an older one with the same text. */
async function clearToasts(page: Page) {
  const close = toasts(page).locator(".mantine-Notification-closeButton");
  for (let i = await close.count(); i > 0; i--) {
    await close
      .first()
      .click({ timeout: 1000 })
      .catch(() => {
        // it closed by itself meanwhile
      });
  }
  await expect(toasts(page)).toHaveCount(0);
}

/** Opens a row's actions menu and picks an item. */
async function rowMenu(page: Page, name: string, item: string) {
  await boardMenu(page, row(page, name), item);
}

/**
 * A real HTML5 drag (react-dnd's backend listens to native dragstart/dragover/drop): press on the source
 * row, move in small steps, release at `where` on the target row ("before" its top edge, "inside" its middle).
 */
async function dragRow(
  page: Page,
  source: Locator,
  target: Locator,
  where: "before" | "after" | "inside",
  screenshot?: string,
) {
  await clearToasts(page);
  const from = (await source.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 6, { steps: 3 });
  const to = (await target.boundingBox())!;
  // x at the target's own indent (18 px a level): a drop beside it, not deeper or shallower.
  const level = Number(await target.getAttribute("aria-level")) - 1;
  const x = to.x + 18 * level + 20;
  const y = where === "before" ? to.y + 3 : where === "after" ? to.y + to.height - 3 : to.y + to.height / 2;
  await page.mouse.move(x, y, { steps: 12 });
  await page.mouse.move(x, y + (where === "after" ? -1 : 1), { steps: 2 });
  if (screenshot) await shot(page, screenshot);
  await page.mouse.up();
}

test("boards tree: create, sub-board, rename inline, reorder and move by drag, move to root, delete", async ({
  page,
}) => {
  test.setTimeout(120_000); // one long flow, a dozen server round trips per step on a busy machine
  await page.setViewportSize({ width: 1280, height: 820 });
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "boards" });
  await page.goto(`${baseUrl()}/w/${workspaceId}`);

  await expect(panel(page).getByText("No boards found")).toBeVisible();

  // A root board through the inline row (Enter saves).
  await panel(page).getByRole("button", { name: "Add board" }).click();
  const input = panel(page).getByPlaceholder("Board Name");
  await expect(input).toBeFocused();
  await input.fill("Campaigns");
  await shot(page, "add-row");
  await input.press("Enter");
  await expectToast(page, "Board created successfully");
  await expect(row(page, "Campaigns")).toBeVisible();
  await expect(panel(page).getByPlaceholder("Board Name")).toHaveCount(0);

  // Whitespace only cancels without creating; so does Escape.
  await panel(page).getByRole("button", { name: "Add board" }).click();
  await panel(page).getByPlaceholder("Board Name").fill("   ");
  await panel(page).getByRole("button", { name: "Save board" }).click();
  await expect(panel(page).getByPlaceholder("Board Name")).toHaveCount(0);
  await panel(page).getByRole("button", { name: "Add board" }).click();
  await panel(page).getByPlaceholder("Board Name").fill("Nope");
  await panel(page).getByPlaceholder("Board Name").press("Escape");
  await expect(panel(page).getByPlaceholder("Board Name")).toHaveCount(0);

  // A second root board, saved with the confirm button.
  await panel(page).getByRole("button", { name: "Add board" }).click();
  await panel(page).getByPlaceholder("Board Name").fill("Archive");
  await panel(page).getByRole("button", { name: "Save board" }).click();
  await expect(row(page, "Archive")).toBeVisible();
  expect(await serverTree(page, workspaceId)).toBe("Campaigns,Archive");

  // A sub-board under Campaigns, from the row's own button.
  await row(page, "Campaigns").hover();
  await row(page, "Campaigns").getByRole("button", { name: "Create Sub-Board" }).click();
  await panel(page).getByPlaceholder("Board Name").fill("Spring launch");
  await panel(page).getByPlaceholder("Board Name").press("Enter");
  await expect(row(page, "Spring launch")).toHaveAttribute("aria-level", "2");
  await expect(row(page, "Campaigns")).toHaveAttribute("aria-expanded", "true");
  expect(await serverTree(page, workspaceId)).toBe("Campaigns(Spring launch),Archive");
  expect((await findBoard(page, workspaceId, "Campaigns")).child_count).toBe(1);

  // Inline rename from the menu: Enter saves.
  await rowMenu(page, "Archive", "Rename");
  const rename = tree(page).getByRole("textbox", { name: "Board name" });
  await expect(rename).toBeFocused();
  await rename.fill("Archive 2024");
  await rename.press("Enter");
  await expectToast(page, "Board renamed successfully");
  await expect(row(page, "Archive 2024")).toBeVisible();
  expect(await serverTree(page, workspaceId)).toBe("Campaigns(Spring launch),Archive 2024");

  // Inline rename by double-click: an empty name cancels the edit.
  await row(page, "Archive 2024").getByText("Archive 2024").dblclick();
  await tree(page).getByRole("textbox", { name: "Board name" }).fill("  ");
  await tree(page).getByRole("textbox", { name: "Board name" }).press("Enter");
  await expect(row(page, "Archive 2024")).toBeVisible();
  await shot(page, "tree");

  // Drag Archive 2024 before Campaigns: a reorder among root siblings.
  await dragRow(page, row(page, "Archive 2024"), row(page, "Campaigns"), "before", "drag-line");
  await expectToast(page, "Board reordered successfully");
  await expect.poll(() => visibleRows(page)).toEqual(["1:Archive 2024", "1:Campaigns", "2:Spring launch"]);
  expect(await serverTree(page, workspaceId)).toBe("Archive 2024,Campaigns(Spring launch)");

  // Drag Archive 2024 onto Campaigns: a move inside it (appended after Spring launch).
  await dragRow(page, row(page, "Archive 2024"), row(page, "Campaigns"), "inside", "drag-inside");
  await expectToast(page, "Board moved successfully");
  await expect.poll(() => visibleRows(page)).toEqual(["1:Campaigns", "2:Spring launch", "2:Archive 2024"]);
  await expect.poll(() => serverTree(page, workspaceId)).toBe("Campaigns(Spring launch,Archive 2024)");
  expect((await findBoard(page, workspaceId, "Campaigns")).child_count).toBe(2);

  // Drag Archive 2024 before Spring launch: a reorder among Campaigns' children.
  await dragRow(page, row(page, "Archive 2024"), row(page, "Spring launch"), "before");
  await expectToast(page, "Board reordered successfully");
  await expect.poll(() => serverTree(page, workspaceId)).toBe("Campaigns(Archive 2024,Spring launch)");

  // Drag Archive 2024 out, before Campaigns at the root: a move, then a reorder to put it first.
  await dragRow(page, row(page, "Archive 2024"), row(page, "Campaigns"), "before");
  await expectToast(page, "Board moved successfully");
  await expect.poll(() => serverTree(page, workspaceId)).toBe("Archive 2024,Campaigns(Spring launch)");
  expect((await findBoard(page, workspaceId, "Campaigns")).child_count).toBe(1);

  // The move dialog refuses a board's own subtree with the server's reason.
  await rowMenu(page, "Campaigns", "Move to…");
  const dialog = page.getByRole("dialog", { name: "Move board" });
  await expect(dialog).toBeVisible();
  expect((await dialog.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(400);
  await dialog.getByRole("button", { name: "Expand Campaigns" }).click();
  await dialog.getByRole("tree").getByRole("treeitem", { name: "Spring launch" }).click();
  await dialog.getByRole("button", { name: "Move here" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("A board cannot be moved into itself or one of its sub-boards.");
  await shot(page, "move-dialog-refused");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  // Spring launch to the root level through the dialog.
  await rowMenu(page, "Spring launch", "Move to…");
  await dialog.getByRole("button", { name: "Root" }).click();
  await shot(page, "move-dialog");
  await dialog.getByRole("button", { name: "Move here" }).click();
  await expectToast(page, "Moved board to: root level");
  await expect(dialog).toBeHidden();
  await expect.poll(() => serverTree(page, workspaceId)).toBe("Archive 2024,Campaigns,Spring launch");
  expect((await findBoard(page, workspaceId, "Campaigns")).child_count).toBe(0);

  // Campaigns into Archive 2024: the toast names the destination.
  await rowMenu(page, "Campaigns", "Move to…");
  await dialog.getByRole("tree").getByRole("treeitem", { name: "Archive 2024" }).click();
  await dialog.getByRole("button", { name: "Move here" }).click();
  await expectToast(page, "Moved board to: Archive 2024");
  await expect.poll(() => serverTree(page, workspaceId)).toBe("Archive 2024(Campaigns),Spring launch");
  await expect(row(page, "Campaigns")).toHaveAttribute("aria-level", "2");

  // The board page: breadcrumbs from the ancestors, the row highlighted; a reload expands its ancestors.
  await row(page, "Campaigns").click();
  const campaigns = await findBoard(page, workspaceId, "Campaigns");
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/b/${campaigns.id}$`));
  await expect(page.getByRole("heading", { name: "Campaigns" })).toBeVisible();
  const crumbs = page.getByTestId("board-breadcrumbs");
  await expect(crumbs).toContainText("Northwind Studio");
  await expect(crumbs).toContainText("Archive 2024");
  await expect(row(page, "Campaigns")).toHaveAttribute("aria-current", "page");
  await page.reload();
  await expect(row(page, "Campaigns")).toHaveAttribute("aria-current", "page");
  await expect(row(page, "Archive 2024")).toHaveAttribute("aria-expanded", "true");
  await shot(page, "board-page");

  // Filtering keeps the ancestors of what matches.
  await panel(page).getByRole("textbox", { name: "Filter boards" }).fill("camp");
  await expect.poll(() => visibleRows(page)).toEqual(["1:Archive 2024", "2:Campaigns"]);
  await panel(page).getByRole("textbox", { name: "Filter boards" }).fill("zzz");
  await expect(panel(page).getByText("No boards found")).toBeVisible();
  await panel(page).getByRole("button", { name: "Clear filter" }).click();

  // Delete the current board with the confirmation: its page goes away with it; Undo brings it back.
  await clearToasts(page);
  await rowMenu(page, "Campaigns", "Delete");
  const confirm = page.getByRole("dialog", { name: "Delete board" });
  await expect(confirm.getByText("Are you sure you want to delete this board?", { exact: true })).toBeVisible();
  await shot(page, "delete-dialog");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Board deleted successfully");
  await expect(row(page, "Campaigns")).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}$`));
  expect(await serverTree(page, workspaceId)).toBe("Archive 2024,Spring launch");
  await toasts(page).filter({ hasText: "Board deleted successfully" }).getByRole("button", { name: "Undo" }).click();
  await expectToast(page, "Board restored");
  await expect(row(page, "Campaigns")).toBeVisible();
  expect(await serverTree(page, workspaceId)).toBe("Archive 2024(Campaigns),Spring launch");

  // An unknown board id is a not-found state inside the workspace.
  await page.goto(`${baseUrl()}/w/${workspaceId}/b/00000000-0000-4000-8000-000000000000`);
  await expect(page.getByText("Board not found")).toBeVisible();
});

test("boards bulk mode: Ctrl-click selects several boards, move them and delete them together", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 820 });
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "bulk" });
  for (const name of ["Clients", "Drafts", "Finals", "Stock"]) {
    await api(page, "POST", `/workspaces/${workspaceId}/boards`, { name, parent_id: null });
  }
  // The tree fails to load: the banner with Retry, which then loads it.
  const treeUrl = `**/workspaces/${workspaceId}/boards?recursive=true`;
  await page.route(treeUrl, (route) => route.fulfill({ status: 500, json: { detail: "boom", code: "INTERNAL" } }));
  await page.goto(`${baseUrl()}/w/${workspaceId}`);
  await expect(panel(page).getByText("Failed to load boards")).toBeVisible();
  await shot(page, "load-error");
  await page.unroute(treeUrl);
  await panel(page).getByRole("button", { name: "Retry" }).click();
  await expect(row(page, "Stock")).toBeVisible();

  // A move the server refuses: the tree goes back to how it was.
  await page.route(`**/workspaces/${workspaceId}/boards/*`, (route) =>
    route.request().method() === "PUT"
      ? route.fulfill({ status: 500, json: { detail: "boom", code: "INTERNAL" } })
      : route.continue(),
  );
  await dragRow(page, row(page, "Stock"), row(page, "Clients"), "inside");
  await expectToast(page, "Failed to move board");
  await expect.poll(() => visibleRows(page)).toEqual(["1:Clients", "1:Drafts", "1:Finals", "1:Stock"]);
  await page.unrouteAll();

  // Rename from the board page's dialog (350 px; Rename is off while the name is blank).
  await row(page, "Stock").click();
  await page.getByRole("button", { name: "Board options" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const renameDialog = page.getByRole("dialog", { name: "Rename board" });
  expect(Math.round((await renameDialog.boundingBox())?.width ?? 0)).toBe(350);
  await renameDialog.getByLabel("Name").fill("   ");
  await expect(renameDialog.getByRole("button", { name: "Rename" })).toBeDisabled();
  await renameDialog.getByLabel("Name").fill("Stock footage");
  await renameDialog.getByRole("button", { name: "Rename" }).click();
  await expectToast(page, "Board renamed successfully");
  await expect(page.getByRole("heading", { name: "Stock footage" })).toBeVisible();
  await expect(row(page, "Stock footage")).toBeVisible();

  await row(page, "Drafts").click({ modifiers: ["ControlOrMeta"] });
  await expect(panel(page).getByTestId("boards-bulk-bar")).toHaveCount(0);
  await row(page, "Finals").click({ modifiers: ["ControlOrMeta"] });
  const bar = panel(page).getByTestId("boards-bulk-bar");
  await expect(bar).toContainText("2 selected");
  await shot(page, "bulk");

  await bar.getByRole("button", { name: "Move" }).click();
  const dialog = page.getByRole("dialog", { name: "Move 2 boards" });
  await dialog.getByRole("tree").getByRole("treeitem", { name: "Clients" }).click();
  await dialog.getByRole("button", { name: "Move here" }).click();
  await expectToast(page, "Moved board to: Clients");
  await expect(bar).toHaveCount(0);
  await expect.poll(() => serverTree(page, workspaceId)).toBe("Clients(Drafts,Finals),Stock footage");

  await row(page, "Clients").click({ modifiers: ["ControlOrMeta"] });
  await row(page, "Stock footage").click({ modifiers: ["ControlOrMeta"] });
  await bar.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete 2 boards" });
  await expect(confirm).toContainText("The assets and sub-boards inside these boards are deleted too.");
  await shot(page, "bulk-delete");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Board deleted successfully");
  await expect(panel(page).getByText("No boards found")).toBeVisible();
  expect(await serverTree(page, workspaceId)).toBe("");
});

test("a commenter sees the tree but no add, edit or drag controls", async ({ browser }) => {
  const ownerContext = await browser.newContext({ baseURL: baseUrl() });
  const owner = await ownerContext.newPage();
  const { workspaceId } = await signUpWithWorkspace(owner, { prefix: "owner" });
  const parent = await api<BoardJson>(owner, "POST", `/workspaces/${workspaceId}/boards`, {
    name: "References",
    parent_id: null,
  });
  await api(owner, "POST", `/workspaces/${workspaceId}/boards`, { name: "Moodboard", parent_id: parent.id });

  const commenterContext = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 820 } });
  const commenter = await commenterContext.newPage();
  await inviteAndJoin(owner, commenter, workspaceId, "COMMENTER");
  await commenter.goto(`${baseUrl()}/w/${workspaceId}`);
  await expect(row(commenter, "References")).toBeVisible();
  await row(commenter, "References").getByRole("button", { name: "Expand References" }).click();
  await expect(row(commenter, "Moodboard")).toBeVisible();
  await row(commenter, "References").hover();
  await expect(panel(commenter).getByRole("button", { name: "Add board" })).toHaveCount(0);
  await expect(panel(commenter).getByRole("button", { name: "Create Sub-Board" })).toHaveCount(0);
  await expect(panel(commenter).getByRole("button", { name: "Board actions" })).toHaveCount(0);
  await shot(commenter, "commenter");

  // Dragging does nothing: the order on the server stays.
  await dragRow(commenter, row(commenter, "Moodboard"), row(commenter, "References"), "before");
  expect(await serverTree(owner, workspaceId)).toBe("References(Moodboard)");
  await ownerContext.close();
  await commenterContext.close();
});

test("the boards tree keeps which boards are open across navigation and reloads, per workspace", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "open" });
  const parent = await api<{ id: string }>(page, "POST", `/workspaces/${workspaceId}/boards`, {
    name: "Campaigns",
    parent_id: null,
  });
  await api(page, "POST", `/workspaces/${workspaceId}/boards`, { name: "Spring", parent_id: parent.id });
  await page.goto(`${baseUrl()}/w/${workspaceId}/b/all`);
  await expect(row(page, "Campaigns")).toBeVisible();
  await expect(row(page, "Spring")).toHaveCount(0);
  await page.getByRole("button", { name: "Expand Campaigns" }).click();
  await expect(row(page, "Spring")).toBeVisible();
  // Another page of the workspace, then a reload: still open.
  await page.getByRole("link", { name: "Members" }).click();
  await page.goto(`${baseUrl()}/w/${workspaceId}/b/all`);
  await expect(row(page, "Spring")).toBeVisible();
  await page.reload();
  await expect(row(page, "Spring")).toBeVisible();
  // Closed again, it stays closed.
  await page.getByRole("button", { name: "Collapse Campaigns" }).click();
  await page.reload();
  await expect(row(page, "Campaigns")).toBeVisible();
  await expect(row(page, "Spring")).toHaveCount(0);
});
