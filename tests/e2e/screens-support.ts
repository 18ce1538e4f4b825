import { type Browser, type BrowserContext, expect as baseExpect, type Page, test } from "@playwright/test";
import { picturesLoaded, settled } from "./a11y-support.ts";
import { card } from "./asset-grid-helpers.ts";
import { createBoard, jpeg, newOwner, uploadAsset } from "./assets-support.ts";
import type { screenshots } from "./screenshots.ts";
import { api, baseUrl } from "./support.ts";

/**
 * Every route and main dialog of the web app, reached as a person reaches it, for the specs that
 * walk them all and check each one (a11y.spec.ts: axe at two sizes; phone-walk.spec.ts: overflow,
 * target size and covered controls at 390 × 844). One workspace with a board, a sub-board, two
 * pictures, a comment, a field, a share link, an upload link and an API key is enough to show each screen full.
 */
// A screen whose control is missing fails on its own, with the others still checked; the waits are
// generous because a loaded machine takes seconds to render a page (conditions, never sleeps).
export const expect = baseExpect.configure({ timeout: 30_000 });

export type Size = { name: "desktop" | "phone"; width: number; height: number };
export const DESKTOP: Size = { name: "desktop", width: 1440, height: 900 };
export const PHONE: Size = { name: "phone", width: 390, height: 844 };

export interface World {
  owner: Awaited<ReturnType<typeof newOwner>>;
  /** A signed-out browser: each visitor screen gets a page of its own in it. */
  visitor: BrowserContext;
  ws: string;
  boardId: string;
  assetId: string;
  shareUrl: string;
  requestUrl: string;
}

/** The workspace every screen shows (about a minute on a busy machine: the uploads are processed). */
export async function buildWorld(browser: Browser, workspaceName: string): Promise<World> {
  const owner = await newOwner(browser, workspaceName);
  const ws = owner.workspaceId;
  const { page } = owner;
  const boardId = (await createBoard(page, ws, "Launch")).id;
  await createBoard(page, ws, "Outtakes", boardId);
  const assetId = await uploadAsset(page, ws, "poster.jpg", await jpeg(1), boardId);
  await uploadAsset(page, ws, "banner.jpg", await jpeg(2), boardId);
  await api(page, "POST", `/workspaces/${ws}/comments`, {
    content_type: "asset",
    object_id: assetId,
    board_id: boardId,
    text: "The logo wants more room on the left.",
  });
  await api(page, "POST", `/workspaces/${ws}/fields`, {
    title: "Status",
    field_type: "SINGLE_SELECT",
    options: [{ label: "Approved", color: "#2b8a3e" }],
  });
  await api(page, "POST", `/workspaces/${ws}/api-keys`, { name: "Website sync", scopes: ["assets:read"] });
  const share = await api<{ path: string }>(page, "GET", `/workspaces/${ws}/share/board/${boardId}`);
  const request = await api<{ path: string }>(page, "POST", `/workspaces/${ws}/boards/${boardId}/file-requests`, {
    title: "Send us the photos",
  });
  const visitor = await browser.newContext({ baseURL: baseUrl() });
  return {
    owner,
    visitor,
    ws,
    boardId,
    assetId,
    shareUrl: `${baseUrl()}${share.path}`,
    requestUrl: `${baseUrl()}${request.path}`,
  };
}

export type Screen = {
  name: string;
  who: "owner" | "visitor";
  only?: Size["name"];
  open(page: Page): Promise<void>;
};

/** Opens `path` and waits until `ready` holds. */
export const at = (path: string, ready: (page: Page) => Promise<unknown>) => async (page: Page) => {
  await page.goto(path);
  await ready(page);
};
export const heading = (page: Page, name: string | RegExp) =>
  expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
export const grid = async (page: Page) => {
  await expect(page.getByRole("gridcell").first()).toBeVisible();
  await picturesLoaded(page);
};
export const dialog = (page: Page, name: string | RegExp) => settled(page.getByRole("dialog", { name }));

/** The viewer on `path`, its picture loaded. */
export const viewer = async (page: Page, path: string) => {
  await page.goto(path);
  await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
};
/** The viewer's sidebar on `tab` (a click on the open tab would close it). */
export const viewerTab = async (page: Page, tab: string) => {
  const button = page.getByTestId(`viewer-tab-${tab}`);
  if ((await button.getAttribute("aria-pressed")) !== "true") await button.click();
  await expect(button).toHaveAttribute("aria-pressed", "true");
};

export const screens = (w: World): Screen[] => [
  { name: "login", who: "visitor", open: at("/a/login", (p) => heading(p, /sign in/i)) },
  { name: "register", who: "visitor", open: at("/a/register", (p) => heading(p, /./)) },
  { name: "forgot-password", who: "visitor", open: at("/a/forgot-password", (p) => heading(p, /./)) },
  {
    name: "not-found",
    who: "visitor",
    open: at("/no/such/page", (p) => expect(p.getByText("Page not found")).toBeVisible()),
  },
  {
    name: "shared-board",
    who: "visitor",
    open: async (p) => {
      await p.goto(w.shareUrl);
      await expect(p.getByTestId("shared-card").first()).toBeVisible();
      await picturesLoaded(p);
    },
  },
  {
    name: "shared-viewer",
    who: "visitor",
    open: async (p) => {
      await p.goto(w.shareUrl);
      await p.getByRole("button", { name: "Open poster.jpg" }).click();
      await expect(p.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
    },
  },
  {
    name: "request-page",
    who: "visitor",
    open: at(w.requestUrl, (p) => expect(p.getByText("Send us the photos").first()).toBeVisible()),
  },
  { name: "home", who: "owner", open: at(`/w/${w.ws}`, (p) => heading(p, /./)) },
  {
    name: "all-assets",
    who: "owner",
    open: at(`/w/${w.ws}/b/all`, async (p) => {
      await heading(p, "All assets");
      await grid(p);
    }),
  },
  { name: "board", who: "owner", open: at(`/w/${w.ws}/b/${w.boardId}`, (p) => grid(p)) },
  {
    name: "filter-drawer",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/b/${w.boardId}`);
      await p.getByTestId("open-filters").click();
      await dialog(p, "Filters");
    },
  },
  {
    name: "share-dialog",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/b/${w.boardId}`);
      await p.getByTestId("board-share").click();
      await dialog(p, "Share Board");
    },
  },
  {
    name: "request-files-dialog",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/b/${w.boardId}`);
      await p.getByRole("button", { name: "Board options" }).click();
      await p.getByRole("menuitem", { name: "Request files…" }).click();
      await dialog(p, /Request files into/);
    },
  },
  {
    name: "upload-dialog",
    who: "owner",
    only: "desktop",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/b/${w.boardId}`);
      await p.getByTestId("upload-button").click();
      await settled(p.getByTestId("upload-dialog"));
    },
  },
  {
    name: "viewer-comments",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/b/${w.boardId}`);
      await card(p, "poster.jpg").click();
      await expect(p.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
      await viewerTab(p, "comments");
      await expect(p.getByText("The logo wants more room on the left.")).toBeVisible();
    },
  },
  {
    name: "viewer-details",
    who: "owner",
    open: async (p) => {
      await viewer(p, `/w/${w.ws}/b/${w.boardId}/a/${w.assetId}`);
      await viewerTab(p, "details");
      await expect(p.getByText("poster.jpg").last()).toBeVisible();
    },
  },
  { name: "members", who: "owner", open: at(`/w/${w.ws}/members`, (p) => heading(p, "Members")) },
  {
    name: "invite-dialog",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/members`);
      await p.getByRole("button", { name: "Invite", exact: true }).click();
      await dialog(p, "Invite member");
    },
  },
  {
    name: "settings-details",
    who: "owner",
    open: at(`/w/${w.ws}/settings/details`, (p) => heading(p, "Settings")),
  },
  {
    name: "settings-fields",
    who: "owner",
    open: at(`/w/${w.ws}/settings/fields`, (p) => expect(p.getByText("Status").first()).toBeVisible()),
  },
  {
    name: "settings-share-links",
    who: "owner",
    // A table at 1440 px, a card a link on a phone: the same test id.
    open: at(`/w/${w.ws}/settings/share-links`, (p) => expect(p.getByTestId("share-links-table")).toBeVisible()),
  },
  {
    name: "settings-api-keys",
    who: "owner",
    // A table at 1440 px, a card a key on a phone: the same test id.
    open: at(`/w/${w.ws}/settings/api-keys`, (p) => expect(p.getByTestId("api-keys-table")).toBeVisible()),
  },
  {
    name: "create-api-key-dialog",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/settings/api-keys`);
      await p.getByRole("button", { name: "Create API key" }).click();
      await dialog(p, "Create API key");
    },
  },
  {
    name: "settings-subscription",
    who: "owner",
    open: at(`/w/${w.ws}/settings/subscription`, (p) => heading(p, "Settings")),
  },
  {
    name: "recently-deleted",
    who: "owner",
    open: at(`/w/${w.ws}/recently-deleted`, (p) => heading(p, "Recently deleted")),
  },
  {
    name: "duplicates",
    who: "owner",
    // The world's two pictures may or may not look alike: the groups or the empty state, loaded.
    open: at(`/w/${w.ws}/duplicates`, async (p) => {
      await heading(p, "Duplicates");
      await expect(p.getByTestId("duplicates").or(p.getByTestId("duplicates-empty"))).toBeVisible();
      await picturesLoaded(p);
    }),
  },
  { name: "account", who: "owner", open: at("/a/settings", (p) => heading(p, "Account settings")) },
  { name: "create-workspace", who: "owner", open: at("/w/new", (p) => heading(p, /./)) },
  {
    name: "phone-menu",
    who: "owner",
    only: "phone",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/b/all`);
      await p.getByRole("button", { name: "Toggle navigation" }).click();
      await expect(p.getByRole("navigation", { name: "Workspace" })).toBeInViewport();
    },
  },
];

/**
 * Opens each of `list` at `size`, one step a screen, runs `check` on it and saves its screenshot
 * through `shot` (`<screen>-<width>`). Soft assertions: a failing screen is reported with every other
 * one (a failed test would restart the worker and redo the setup); a screen that does not open is
 * one failure, with the screenshot of where it got stuck.
 */
export async function walkScreens(
  w: World,
  list: Screen[],
  size: Size,
  shot: ReturnType<typeof screenshots>,
  check: (page: Page, screen: Screen) => Promise<void>,
) {
  for (const screen of list) {
    if (screen.only && screen.only !== size.name) continue;
    await test.step(screen.name, async () => {
      const page = screen.who === "owner" ? w.owner.page : await w.visitor.newPage();
      try {
        await page.setViewportSize(size);
        await screen.open(page);
        await check(page, screen);
        await shot(page, `${screen.name}-${size.width}`);
      } catch (error) {
        await shot(page, `${screen.name}-${size.width}-failed`).catch(() => {});
        expect.soft(String(error).split("\n")[0], `${screen.name} did not open`).toBe("");
      } finally {
        if (screen.who === "visitor") await page.close();
      }
    });
  }
}
