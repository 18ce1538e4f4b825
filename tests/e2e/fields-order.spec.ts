import type { CustomField, Member } from "@hangar/contract";
import { type Browser, type BrowserContext, expect, type Locator, type Page, type Route, test } from "@playwright/test";
import { expectToast, newOwner } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, inviteAndJoin } from "./support.ts";
import { stoppedMoving, valuesTopToBottom } from "./waits.ts";

/** Settings → Fields drag-to-reorder (issue #16): fields by mouse, options by keyboard; saved, or put back. */
const shot = screenshots("fields-order");

let owner: Awaited<ReturnType<typeof newOwner>>;
let second: { context: BrowserContext; page: Page; email: string };
let status: CustomField;

const titleInputs = (page: Page) => page.getByTestId("field-card").getByLabel("Title");
const titles = (page: Page) => titleInputs(page).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
const optionLabels = (card: Locator) =>
  card.getByLabel("Option label").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
const statusCard = (page: Page) =>
  page.getByTestId("field-card").filter({ has: page.locator('input[value="Status"]') });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(120_000);
  owner = await newOwner(browser, "Order studio");
  const { page, workspaceId } = owner;
  status = await api<CustomField>(page, "POST", `/workspaces/${workspaceId}/fields`, {
    title: "Status",
    field_type: "SINGLE_SELECT",
    options: [
      { label: "Draft", color: "#9e9e9e" },
      { label: "Review", color: "#f08c00" },
      { label: "Approved", color: "#2f9e44" },
    ],
  });
  for (const title of ["Notes", "Client"])
    await api(page, "POST", `/workspaces/${workspaceId}/fields`, { title, field_type: "TEXT" });
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  const spage = await context.newPage();
  second = { context, page: spage, email: await inviteAndJoin(page, spage, workspaceId, "ADMIN") };
});
test.afterAll(async () => {
  await owner?.context.close();
  await second?.context.close();
});

test("an ADMIN drags a field with the mouse and moves an option with the keyboard; both stay after a reload", async () => {
  test.setTimeout(90_000);
  const { page, workspaceId } = owner;
  await page.setViewportSize({ width: 1280, height: 1200 }); // every card on screen, for the mouse
  await page.goto(`/w/${workspaceId}/settings/fields`);
  await expect(page.getByTestId("field-card")).toHaveCount(3);
  expect(await titles(page)).toEqual(["Status", "Notes", "Client"]);
  await expect(page.getByRole("button", { name: /^Move .* (up|down)$/ })).toHaveCount(0);

  // Mouse: Client's handle up onto Status's, in small steps as a hand would.
  const from = (await page.getByRole("button", { name: "Drag to reorder Client" }).boundingBox())!;
  const to = (await page.getByRole("button", { name: "Drag to reorder Status" }).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 8, { steps: 20 });
  await expect(page.getByRole("button", { name: "Drag to reorder Client" })).toHaveAttribute("aria-pressed", "true");
  // The other cards make room: on screen Client is above them now, and nothing moves any more.
  await expect.poll(() => valuesTopToBottom(titleInputs(page))).toEqual(["Client", "Status", "Notes"]);
  await stoppedMoving(page.getByTestId("field-card"));
  await shot(page, "mid-drag");
  await page.mouse.up();
  await expect.poll(() => titles(page)).toEqual(["Client", "Status", "Notes"]);

  // Keyboard: Approved up two places (Space picks up, arrows move, Space drops), announced on the way.
  const card = statusCard(page);
  expect(await optionLabels(card)).toEqual(["Draft", "Review", "Approved"]);
  const handle = card.getByRole("button", { name: "Drag to reorder Approved" });
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(page.getByText("Picked up option Approved, at position 3 of 3.")).toBeAttached();
  // One step at a time: each arrow moves by where the items are now, so the next waits for this one.
  for (const [position, onScreen] of [
    [2, ["Draft", "Approved", "Review"]],
    [1, ["Approved", "Draft", "Review"]],
  ] as const) {
    await page.keyboard.press("ArrowUp");
    await expect(page.getByText(`Approved moved to position ${position} of 3.`)).toBeAttached();
    // The items finish moving, so the next step measures them there.
    await expect.poll(() => valuesTopToBottom(card.getByLabel("Option label"))).toEqual(onScreen);
    await stoppedMoving(card.getByLabel("Option label"));
  }
  await page.keyboard.press("Space");
  await expect(page.getByText("Approved dropped at position 1 of 3.")).toBeAttached();
  await expect.poll(() => optionLabels(card)).toEqual(["Approved", "Draft", "Review"]);
  await page.waitForLoadState("networkidle");
  await shot(page, "after");

  await page.reload();
  await expect(page.getByTestId("field-card")).toHaveCount(3);
  expect(await titles(page)).toEqual(["Client", "Status", "Notes"]);
  expect(await optionLabels(statusCard(page))).toEqual(["Approved", "Draft", "Review"]);
  await shot(page, "reloaded");
  const saved = await api<CustomField[]>(page, "GET", `/workspaces/${workspaceId}/fields`);
  expect(saved.map((f) => f.title)).toEqual(["Client", "Status", "Notes"]);
  expect(saved[1]!.options.map((o) => o.label)).toEqual(["Approved", "Draft", "Review"]);
});

test("a stale option list is refused and put back with the server's word; an admin demoted meanwhile too, then sees no handles", async () => {
  test.setTimeout(60_000);
  const { page, workspaceId } = owner;
  await page.goto(`/w/${workspaceId}/settings/fields`);
  const card = statusCard(page);
  await expect.poll(() => optionLabels(card)).toEqual(["Approved", "Draft", "Review"]);
  // Someone else deletes an option meanwhile: this page's list is stale, so the server refuses it.
  const review = status.options.find((o) => o.label === "Review")!;
  await api(page, "DELETE", `/workspaces/${workspaceId}/custom-fields/${status.id}/options/${review.id}`);
  await card.getByRole("button", { name: "Drag to reorder Review" }).focus();
  await page.keyboard.press("Space");
  // The arrow waits for the pick-up: pressed before it, it would move nothing.
  await expect(page.getByText("Picked up option Review, at position 3 of 3.")).toBeAttached();
  await page.keyboard.press("ArrowUp");
  await expect(page.getByText("Review moved to position 2 of 3.")).toBeAttached();
  // Review is over Draft's place once the items have moved (the drop measures where they are).
  await expect.poll(() => valuesTopToBottom(card.getByLabel("Option label"))).toEqual(["Approved", "Review", "Draft"]);
  await stoppedMoving(card.getByLabel("Option label"));
  await page.keyboard.press("Space");
  await expectToast(page, "The options of this field changed meanwhile: reload and try again.");
  await expect.poll(() => optionLabels(card)).toEqual(["Approved", "Draft"]);

  // The second ADMIN has the page open with handles, and is made a COMMENTER before dropping.
  const spage = second.page;
  await spage.setViewportSize({ width: 1280, height: 1200 });
  await spage.goto(`/w/${workspaceId}/settings/fields`);
  await expect(spage.getByTestId("field-card")).toHaveCount(3);
  const members = await api<Member[]>(page, "GET", `/workspaces/${workspaceId}/members`);
  const member = members.find((m) => m.email === second.email)!;
  await api(page, "PUT", `/workspaces/${workspaceId}/members/${member.user_id}`, { role: "COMMENTER" });
  const from = (await spage.getByRole("button", { name: "Drag to reorder Notes" }).boundingBox())!;
  const to = (await spage.getByRole("button", { name: "Drag to reorder Client" }).boundingBox())!;
  await spage.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await spage.mouse.down();
  await spage.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 8, { steps: 20 });
  // The other cards make room for Notes at the top, and nothing moves any more.
  await expect.poll(() => valuesTopToBottom(titleInputs(spage))).toEqual(["Notes", "Client", "Status"]);
  await stoppedMoving(spage.getByTestId("field-card"));
  // The list's refetch is held back, so only the page's own undo can put the order back.
  const held: Route[] = [];
  const list = /\/api\/v1\/workspaces\/[^/]+\/fields$/;
  await spage.route(list, (route) => (route.request().method() === "GET" ? held.push(route) : route.continue()));
  await spage.mouse.up();
  await expectToast(spage, "You do not have permission to do this.");
  await expect.poll(() => titles(spage)).toEqual(["Client", "Status", "Notes"]);
  await shot(spage, "refused");
  await spage.unroute(list);
  // Let them go (one the page cancelled meanwhile is handled already).
  await Promise.all(held.map((r) => r.continue().catch(() => undefined)));

  await spage.reload();
  await expect(spage.getByTestId("field-card")).toHaveCount(3);
  expect(await titles(spage)).toEqual(["Client", "Status", "Notes"]);
  await expect(spage.getByRole("button", { name: /^Drag to reorder/ })).toHaveCount(0);
  await expect(spage.getByTestId("drag-handle")).toHaveCount(0);
  await shot(spage, "read-only");
});
