import { expect, type Page, test } from "@playwright/test";
import { textPdf } from "../../apps/server/src/ops/demo-content.ts";
import { card } from "./asset-grid-helpers.ts";
import { createBoard, jpeg, newOwner, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api } from "./support.ts";

/** The small things of issue 35, looked at where a new user met them, at 1440 × 900 and 390 × 844. */
const shot = screenshots("polish");
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

let owner: Awaited<ReturnType<typeof newOwner>>;
test.beforeAll(async ({ browser }) => {
  owner = await newOwner(browser, "Polish studio");
});
test.afterAll(() => owner?.context.close());

const box = async (page: Page, testId: string) => (await page.getByTestId(testId).first().boundingBox())!;

test("“Invite your team” on the empty home is a styled link, not the browser's blue", async () => {
  const { page, workspaceId } = owner;
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(`/w/${workspaceId}`);
    const link = page.getByTestId("first-steps").getByRole("link", { name: "Invite your team" });
    await expect(link).toBeVisible();
    expect(await link.evaluate((a) => getComputedStyle(a).color)).not.toBe("rgb(0, 0, 238)");
    await expect(link).toHaveClass(/mantine-Anchor-root/);
    await shot(page, `home-${size.width}`);
  }
});

test("the zoom toolbar never covers a tall document page", async () => {
  const { page, workspaceId } = owner;
  const pdf = textPdf([1, 2].map((n) => ({ title: `Tall page ${n}`, lines: ["Footer below"], rgb: [0.2, 0.4, 0.7] })));
  const id = await uploadAsset(page, workspaceId, "tall.pdf", pdf, undefined, "application/pdf");
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(`/w/${workspaceId}/a/${id}`);
    await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
    const image = await box(page, "viewer-image");
    const toolbar = await box(page, "zoom-toolbar");
    expect(toolbar.y, `${size.width}: the toolbar starts below the page's foot`).toBeGreaterThanOrEqual(
      image.y + image.height,
    );
    await shot(page, `pdf-${size.width}`);
  }
});

test("in a board at 1440 px the bulk bar is one line, Delete included", async () => {
  const { page, workspaceId } = owner;
  const board = await createBoard(page, workspaceId, "Launch");
  for (const [i, name] of ["one.jpg", "two.jpg"].entries())
    await uploadAsset(page, workspaceId, name, await jpeg(i), board.id);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${workspaceId}/b/${board.id}`);
  for (const name of ["one.jpg", "two.jpg"]) await card(page, name).click({ modifiers: ["ControlOrMeta"] });
  const bar = page.getByTestId("asset-bulk-bar");
  await expect(bar.getByTestId("bulk-count")).toHaveText("2 selected");
  const middle = async (name: string) => {
    const b = (await bar.getByRole("button", { name, exact: true }).boundingBox())!;
    return b.y + b.height / 2;
  };
  const first = await middle("Tag");
  for (const name of ["Remove from board", "Share", "Download", "Delete", "Clear selection"])
    expect(Math.abs((await middle(name)) - first), name).toBeLessThan(4);
  await shot(bar, "bulk-bar-board-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "bulk-bar-board-390");
});

test("a custom-field filter's chip names the field and the value chosen", async () => {
  const { page, workspaceId } = owner;
  const field = await api<{ id: string; options: Array<{ id: string; label: string }> }>(
    page,
    "POST",
    `/workspaces/${workspaceId}/fields`,
    {
      title: "Status",
      field_type: "SINGLE_SELECT",
      options: [
        { label: "Approved", color: "#2b8a3e" },
        { label: "Draft", color: "#1971c2" },
      ],
    },
  );
  const approved = field.options.find((o) => o.label === "Approved")!.id;
  const f = Buffer.from(JSON.stringify({ custom_fields: [{ field_id: field.id, any_of: [approved] }] })).toString(
    "base64url",
  );
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(`/w/${workspaceId}/b/all?f=${f}`);
    await expect(page.getByTestId("filter-chip")).toHaveText(["Status: Approved"]);
    await shot(page, `field-chip-${size.width}`);
  }
  await page.getByRole("button", { name: "Remove filter Status: Approved" }).click();
  await expect(page.getByTestId("filter-chips")).toHaveCount(0);
});
