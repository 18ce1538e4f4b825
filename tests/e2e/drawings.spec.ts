import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { expectToast, newOwner, uploadAsset } from "./assets-support.ts";
import { clipMp4, photoJpeg } from "./media-fixtures.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl } from "./support.ts";

/**
 * Drawing on the work (issue 31): shapes on a photo that stay on their spot at 225 %, shapes on a
 * paused video frame that come back with that frame, a range made with I and O, and a share link's
 * visitor drawing.
 */
const shot = screenshots("drawings");

interface Shape {
  kind: string;
  points: Array<[number, number]>;
  color: string;
  width: number;
}
interface Comment {
  id: string;
  text: string;
  annotation_type: string;
  timestamp: number | null;
  duration: number | null;
  shapes: Shape[] | null;
}

let owner: Awaited<ReturnType<typeof newOwner>>;
const ids: Record<string, string> = {};

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(240_000);
  owner = await newOwner(browser, "Markup studio");
  const { page, workspaceId } = owner;
  ids.photo = await uploadAsset(page, workspaceId, "storefront.jpg", await photoJpeg());
  ids.clip = await uploadAsset(page, workspaceId, "spot.mp4", clipMp4(), undefined, "video/mp4");
});
test.afterAll(() => owner?.context.close());

const comments = (page: Page, assetId: string) =>
  api<{ results: Comment[] }>(
    page,
    "GET",
    `/workspaces/${owner.workspaceId}/comments?content_type=asset&object_id=${assetId}`,
  ).then((r) => r.results);

/** Presses at `from` and releases at `to` (fractions of the element's box), moving through `via`. */
async function stroke(page: Page, target: Locator, points: Array<[number, number]>) {
  const box = (await target.boundingBox())!;
  const at = ([fx, fy]: [number, number]) => [box.x + box.width * fx, box.y + box.height * fy] as const;
  await page.mouse.move(...at(points[0]!));
  await page.mouse.down();
  for (const p of points.slice(1)) await page.mouse.move(...at(p), { steps: 4 });
  await page.mouse.up();
}

/** Where a shape's painted box is, as fractions of the picture's box. */
async function relBox(shape: Locator, picture: Locator) {
  const s = (await shape.boundingBox())!;
  const p = (await picture.boundingBox())!;
  return {
    left: (s.x - p.x) / p.width,
    top: (s.y - p.y) / p.height,
    right: (s.x + s.width - p.x) / p.width,
    bottom: (s.y + s.height - p.y) / p.height,
  };
}

test("an arrow and a rectangle drawn on a photo are posted together and stay on their spot at 225 %", async () => {
  const { page, workspaceId } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${workspaceId}/a/${ids.photo}`);
  const image = page.getByTestId("viewer-image");
  await expect(image).toHaveAttribute("data-loaded", "true");
  const layer = page.getByTestId("image-preview").getByTestId("annotation-layer");
  const toolbar = page.getByRole("toolbar", { name: "Annotation tools" });
  await expect(toolbar).toBeVisible();

  // The arrow, in blue and thick; then the rectangle (Ctrl+Z takes it off, Ctrl+Shift+Z puts it back).
  await toolbar.getByRole("button", { name: "Arrow" }).click();
  await toolbar.getByTestId("pen-style").click();
  await page.getByRole("button", { name: "Blue", exact: true }).click();
  await page.getByRole("button", { name: "Thick", exact: true }).click();
  // Escape closes the popover, not the viewer.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Thick", exact: true })).toBeHidden();
  await expect(toolbar.getByTestId("pen-style")).toHaveAccessibleName("Colour and width: Blue, Thick");
  await stroke(page, layer, [
    [0.2, 0.3],
    [0.4, 0.5],
  ]);
  const draft = page.getByTestId("drawing-draft").getByTestId("drawing-shape");
  await expect(draft).toHaveCount(1);
  await toolbar.getByRole("button", { name: "Rectangle" }).click();
  await stroke(page, layer, [
    [0.55, 0.2],
    [0.8, 0.45],
  ]);
  await expect(draft).toHaveCount(2);
  await page.getByTestId("drawing-stage").focus();
  await page.keyboard.press("Control+z");
  await expect(draft).toHaveCount(1);
  await page.keyboard.press("Control+Shift+z");
  await expect(draft).toHaveCount(2);
  await shot(page, "photo-draft");
  // Keys choose tools while the preview has focus; Escape drops a draft.
  await page.keyboard.press("d");
  await expect(toolbar.getByRole("button", { name: "Pen" })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("r");
  await expect(toolbar.getByRole("button", { name: "Rectangle" })).toHaveAttribute("aria-pressed", "true");
  await page.getByLabel("Annotation comment").fill("Arrow to the door; the sign box is cut");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("annotation-popover")).toContainText("Arrow to the door");

  const saved = (await comments(page, ids.photo!)).find((c) => c.text.startsWith("Arrow to the door"))!;
  expect(saved.annotation_type).toBe("DRAWING");
  expect(saved.shapes!.map((s) => s.kind)).toEqual(["arrow", "rect"]);
  expect(saved.shapes![0]!.color).toBe("#1C7ED6");
  expect(saved.shapes![0]!.width).toBe(8);
  const [[x1, y1], [x2, y2]] = saved.shapes![1]!.points as [[number, number], [number, number]];
  for (const [got, want] of [
    [x1, 55],
    [y1, 20],
    [x2, 80],
    [y2, 45],
  ] as const)
    expect(Math.abs(got! - want)).toBeLessThan(0.8);

  // On screen: the rectangle's centre where it was drawn, at fit and at 225 %; its stroke as wide on
  // screen at both (its painted box is the drawn box plus one stroke width).
  const rect = page.locator('[data-testid="drawing"] [data-kind="rect"]').first();
  const measure = async () => {
    const r = await relBox(rect, image);
    const picture = (await image.boundingBox())!;
    return {
      cx: (r.left + r.right) / 2,
      cy: (r.top + r.bottom) / 2,
      strokePx: (r.right - r.left - 0.25) * picture.width,
    };
  };
  const atFit = await measure();
  expect(Math.abs(atFit.cx - 0.675)).toBeLessThan(0.004);
  expect(Math.abs(atFit.cy - 0.325)).toBeLessThan(0.004);
  expect(atFit.strokePx).toBeGreaterThan(4);
  await page.getByRole("button", { name: "Zoom in" }).click();
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect(page.getByTestId("zoom-level")).toHaveText("225%");
  const zoomed = await measure();
  expect(Math.abs(zoomed.cx - 0.675)).toBeLessThan(0.004);
  expect(Math.abs(zoomed.cy - 0.325)).toBeLessThan(0.004);
  expect(Math.abs(zoomed.strokePx - atFit.strokePx)).toBeLessThan(2.5);
  await shot(page, "photo-225");

  // Hovering its comment highlights the shapes; a click on a shape opens the comment.
  await page.getByRole("button", { name: "Reset zoom" }).click();
  await page.getByRole("button", { name: "Close annotation" }).click();
  await expect(page.getByTestId("annotation-popover")).toBeHidden();
  await page.getByTestId("comments-panel").getByText("Arrow to the door").hover();
  await expect(page.locator(`[data-testid="drawing"][data-comment-id="${saved.id}"]`)).toHaveAttribute(
    "data-highlighted",
    "true",
  );
  await toolbar.getByRole("button", { name: "Area" }).click();
  const box = (await rect.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + 1);
  await expect(page.getByTestId("annotation-popover")).toContainText("Arrow to the door");
});

test("shapes on a paused video frame come back with that frame; I and O make a range comment", async () => {
  const { page, workspaceId } = owner;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${workspaceId}/a/${ids.clip}`);
  await expect(page.getByTestId("video-loading")).toBeHidden();
  const video = page.getByTestId("viewer-video");
  const frame = page.getByTestId("video-frame");
  await expect(frame).toBeVisible();
  await video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    v.currentTime = 2;
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(2, 1);

  // The pen: a stroke, then the text.
  await page.getByRole("toolbar", { name: "Annotation tools" }).getByRole("button", { name: "Pen" }).click();
  await stroke(page, frame.getByTestId("annotation-layer"), [
    [0.3, 0.3],
    [0.4, 0.35],
    [0.5, 0.5],
    [0.45, 0.6],
  ]);
  await page.getByLabel("Annotation comment").fill("Circle the mug on this frame");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("annotation-popover")).toContainText("Circle the mug");
  const drawn = (await comments(page, ids.clip!)).find((c) => c.text.startsWith("Circle the mug"))!;
  expect(drawn.shapes![0]!.kind).toBe("pen");
  expect(drawn.shapes![0]!.points.length).toBeGreaterThan(2);
  expect(drawn.timestamp).toBeCloseTo(2, 1);
  const onVideo = frame.locator(`[data-testid="drawing"][data-comment-id="${drawn.id}"]`);
  await expect(onVideo).toHaveCount(1);
  await shot(page, "video-frame");

  // Elsewhere in the clip the shapes are gone; back on the frame they are there again.
  await page.getByTestId("viewer-title").click();
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0.5;
  });
  await expect(onVideo).toHaveCount(0);
  await page.getByTestId("comments-panel").getByText("Circle the mug").click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(2, 1);
  await expect(onVideo).toHaveCount(1);

  // A range: I at 1 s, O at 3.5 s, then the comment takes it.
  await page.getByTestId("viewer-title").click();
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 1;
  });
  await expect(page.getByTestId("video-timecode")).toContainText("00:00:01:00");
  await page.keyboard.press("i");
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 3.5;
  });
  await expect(page.getByTestId("video-timecode")).toContainText("00:00:03:12");
  await page.keyboard.press("o");
  await expect(page.getByTestId("timeline-range")).toBeVisible();
  await expect(page.getByTestId("video-range-stamp")).toHaveText("00:01 – 00:03");
  await page.getByLabel("Add a comment…").fill("Too long: trim this part");
  await page.keyboard.press("Enter");
  await expectToast(page, "Comment posted successfully!");
  const ranged = (await comments(page, ids.clip!)).find((c) => c.text.startsWith("Too long"))!;
  expect(ranged.timestamp).toBeCloseTo(1, 2);
  expect(ranged.duration).toBeCloseTo(2.5, 2);
  await expect(page.getByTestId("timeline-range")).toHaveCount(0);
  await expect(page.locator('[data-testid="timeline-marker"][data-range="true"]')).toHaveCount(1);
  await page.getByTestId("video-player").hover();
  await shot(page, "video-range");
});

test("a share link's visitor draws an ellipse and posts it under their name", async ({ browser }) => {
  const { page, workspaceId } = owner;
  const board = await api<{ id: string }>(page, "POST", `/workspaces/${workspaceId}/boards`, { name: "Client review" });
  await api(page, "POST", `/workspaces/${workspaceId}/boards/${board.id}/assets`, { asset_ids: [ids.photo] });
  const link = await api<{ path: string }>(
    page,
    "GET",
    `/workspaces/${workspaceId}/share/asset/${ids.photo}?board_id=${board.id}`,
  );
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  try {
    const v = await context.newPage();
    await v.goto(link.path);
    await expect(v.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
    // The link shows the board's comments (the owner's were made outside it): none yet.
    await expect(v.getByText("No comments yet")).toBeVisible();
    await v.getByRole("toolbar", { name: "Annotation tools" }).getByRole("button", { name: "Ellipse" }).click();
    await stroke(v, v.getByTestId("image-preview").getByTestId("annotation-layer"), [
      [0.1, 0.6],
      [0.3, 0.85],
    ]);
    await v.getByLabel("Annotation comment").fill("Is this bench ours?");
    await v.keyboard.press("Enter");
    const anon = v.getByRole("dialog", { name: "Post Comment or Edit Custom Field" });
    await anon.getByLabel("Name").fill("Dana Client");
    await anon.getByRole("button", { name: "Continue" }).click();
    await expect(v.getByTestId("annotation-popover")).toContainText("Is this bench ours?");
    await expect(v.locator('[data-testid="drawing"]')).toHaveCount(1);
    await shot(v, "visitor");
    const posted = (await comments(page, ids.photo!)).find((c) => c.text === "Is this bench ours?")!;
    expect(posted.shapes!.map((s) => s.kind)).toEqual(["ellipse"]);
  } finally {
    await context.close();
  }
});

test("on a phone the tools fit, one finger draws a line, and the drawing is posted", async ({ browser }) => {
  const { workspaceId } = owner;
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    storageState: await owner.context.storageState(),
  });
  try {
    const page = await context.newPage();
    await page.goto(`/w/${workspaceId}/a/${ids.photo}`);
    await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
    const toolbar = page.getByRole("toolbar", { name: "Annotation tools" });
    const bar = (await toolbar.boundingBox())!;
    expect(bar.x).toBeGreaterThanOrEqual(0);
    expect(bar.x + bar.width).toBeLessThanOrEqual(390);
    await toolbar.getByRole("button", { name: "Line" }).tap();
    // One finger: touch events through the DevTools protocol (Playwright's touchscreen only taps).
    const layer = page.getByTestId("image-preview").getByTestId("annotation-layer");
    const box = (await layer.boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const touch = (type: "touchStart" | "touchMove" | "touchEnd", fx: number, fy: number) =>
      cdp.send("Input.dispatchTouchEvent", {
        type,
        touchPoints: type === "touchEnd" ? [] : [{ x: box.x + box.width * fx, y: box.y + box.height * fy }],
      });
    // Away from the earlier drawings' markers (a touch on a marker opens its comment instead).
    await touch("touchStart", 0.3, 0.6);
    for (let i = 1; i <= 8; i++) await touch("touchMove", 0.3 + i * 0.05, 0.6 + i * 0.03);
    await touch("touchEnd", 0, 0);
    await expect(page.getByTestId("drawing-draft").getByTestId("drawing-shape")).toHaveCount(1);
    await page.getByLabel("Annotation comment").fill("Straighten this edge");
    await shot(page, "phone-draft");
    await page.getByRole("button", { name: "Post" }).tap();
    await expect(page.getByTestId("annotation-textbox")).toBeHidden();
    // With the comments closed too, the drawing is on the picture and its comment opens.
    await expect(page.getByTestId("annotation-popover")).toContainText("Straighten this edge");
    await expect(page.locator(`[data-testid="drawing"]`)).toHaveCount(2); // the arrow and rectangle, and this line
    await shot(page, "phone-sheet-closed");
    await page.getByRole("button", { name: "Close annotation" }).tap();
    // The comments sheet lists it, with the drawing on the picture above it.
    await page.getByTestId("viewer-tab-comments").tap();
    await expect(page.getByTestId("comments-panel").getByText("Straighten this edge")).toBeVisible();
    await expect(page.getByTestId("drawing")).not.toHaveCount(0);
    const posted = (await comments(page, ids.photo!)).find((c) => c.text === "Straighten this edge")!;
    expect(posted.shapes!.map((s) => s.kind)).toEqual(["line"]);
    const [[x1, y1], [x2, y2]] = posted.shapes![0]!.points as [[number, number], [number, number]];
    expect(Math.abs(x1 - 30)).toBeLessThan(1);
    expect(Math.abs(y1 - 60)).toBeLessThan(1);
    expect(Math.abs(x2 - 70)).toBeLessThan(1);
    expect(Math.abs(y2 - 84)).toBeLessThan(1);
    await shot(page, "phone-posted");
  } finally {
    await context.close();
  }
});
