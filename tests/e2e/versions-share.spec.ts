import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { createBoard, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, signUpWithWorkspace } from "./support.ts";
import { poster, uploadVersion } from "./versions-support.ts";

/** Versions through a share link (issue 29): only with the link's show_versions. */
const shot = screenshots("versions");

let context: BrowserContext;
let page: Page;
let workspaceId: string;
let board: { id: string; name: string };
let posterId: string;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(180_000);
  context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  ({ workspaceId } = await signUpWithWorkspace(page, { prefix: "versions-share", workspaceName: "Poster studio" }));
  board = await createBoard(page, workspaceId, "Launch");
  posterId = await uploadAsset(page, workspaceId, "poster.jpg", await poster(1), board.id);
  const comment = (text: string, version_id?: string) =>
    api(page, "POST", `/workspaces/${workspaceId}/comments`, {
      content_type: "asset",
      object_id: posterId,
      board_id: board.id,
      text,
      annotation_type: "POINT",
      x: 40,
      y: 40,
      ...(version_id ? { version_id } : {}),
    });
  await comment("Headline too low");
  await comment(
    "Sun reads better now",
    await uploadVersion(page, workspaceId, posterId, "poster-v2.jpg", await poster(2)),
  );
  // Round 1 is current again: round 2 is the other version.
  const [, v1] = await api<Array<{ id: string }>>(
    page,
    "GET",
    `/workspaces/${workspaceId}/assets/${posterId}/versions`,
  );
  await api(page, "POST", `/workspaces/${workspaceId}/assets/${posterId}/versions/${v1!.id}/current`);
});
test.afterAll(() => context?.close());

test("a share link's visitors switch versions when the link shows them, and see the current one otherwise", async ({
  browser,
}) => {
  const link = await api<{ token: string; path: string }>(
    page,
    "GET",
    `/workspaces/${workspaceId}/share/asset/${posterId}?board_id=${board.id}`,
  );
  const flags = (show_versions: boolean) =>
    api(page, "PUT", `/workspaces/${workspaceId}/share/asset/${posterId}`, { show_versions, board_id: board.id });
  await flags(true);
  const visitor = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  try {
    const v = await visitor.newPage();
    await v.goto(link.path);
    await expect(v.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
    await v.getByTestId("version-menu").click();
    const list = v.getByTestId("version-list");
    await expect(list.getByRole("button", { name: "Upload new version…" })).toHaveCount(0);
    // Round 2's version (its comment "Sun reads better now"); the current one is round 1's.
    const round2 = { number: 2 };
    await list.getByRole("button", { name: `Show v${round2.number}` }).click();
    await expect(v.getByTestId("version-menu")).toHaveText(`v${round2.number}`);
    await expect(v.getByTestId("annotation-marker")).toHaveCount(1);
    await expect(v.getByTestId("comments-panel")).toContainText("Sun reads better now");
    await shot(v, "shared-desktop");

    // Without the flag: the current version only, no menu.
    await flags(false);
    await v.goto(link.path);
    await expect(v.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
    await expect(v.getByTestId("version-menu")).toHaveCount(0);
    await expect(v.getByTestId("comments-panel")).toContainText("Headline too low");
    await expect(v.getByTestId("comments-panel")).not.toContainText("Sun reads better now");
  } finally {
    await visitor.close();
  }
});
