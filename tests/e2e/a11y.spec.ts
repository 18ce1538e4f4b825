import { type Browser, type BrowserContext, expect as baseExpect, type Page, test } from "@playwright/test";
import {
  audit,
  blocking,
  describe,
  type Finding,
  picturesLoaded,
  saveFindings,
  settled,
  structure,
  tally,
} from "./a11y-support.ts";
import { createBoard, jpeg, newOwner, uploadAsset } from "./assets-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl } from "./support.ts";

/**
 * Issue 35, accessibility: axe (WCAG 2.1 A and AA) on every route and main dialog at 1440 × 900 and
 * 390 × 844 finds no critical or serious violation; by keyboard alone one reaches the grid past a
 * skip link, opens an asset, switches its tabs, closes it and is back on its card.
 */
const shot = screenshots("a11y");
// A screen whose control is missing fails on its own, with the others still audited; the waits are
// generous because a loaded machine takes seconds to render a page (conditions, never sleeps).
test.use({ actionTimeout: 30_000 });
const expect = baseExpect.configure({ timeout: 30_000 });
const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

let owner: Awaited<ReturnType<typeof newOwner>>;
let visitor: BrowserContext;
let ws = "";
let boardId = "";
let assetId = "";
let shareUrl = "";
let requestUrl = "";

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(180_000);
  owner = await newOwner(browser, "Access studio");
  ws = owner.workspaceId;
  const { page } = owner;
  boardId = (await createBoard(page, ws, "Launch")).id;
  await createBoard(page, ws, "Outtakes", boardId);
  assetId = await uploadAsset(page, ws, "poster.jpg", await jpeg(1), boardId);
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
  shareUrl = `${baseUrl()}${(await api<{ path: string }>(page, "GET", `/workspaces/${ws}/share/board/${boardId}`)).path}`;
  const request = await api<{ path: string }>(page, "POST", `/workspaces/${ws}/boards/${boardId}/file-requests`, {
    title: "Send us the photos",
  });
  requestUrl = `${baseUrl()}${request.path}`;
  visitor = await browser.newContext({ baseURL: baseUrl() });
});
test.afterAll(async () => {
  await owner?.context.close();
  await visitor?.close();
});

type Screen = { name: string; who: "owner" | "visitor"; only?: "desktop" | "phone"; open(page: Page): Promise<void> };

/** Opens `path` (known once the setup has run) and waits until `ready` holds. */
const at = (path: () => string, ready: (page: Page) => Promise<unknown>) => async (page: Page) => {
  await page.goto(path());
  await ready(page);
};
const heading = (page: Page, name: string | RegExp) =>
  expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
const grid = async (page: Page) => {
  await expect(page.getByRole("gridcell").first()).toBeVisible();
  await picturesLoaded(page);
};
const dialog = (page: Page, name: string | RegExp) => settled(page.getByRole("dialog", { name }));

const SCREENS: Screen[] = [
  {
    name: "login",
    who: "visitor",
    open: at(
      () => "/a/login",
      (p) => heading(p, /sign in/i),
    ),
  },
  {
    name: "register",
    who: "visitor",
    open: at(
      () => "/a/register",
      (p) => heading(p, /./),
    ),
  },
  {
    name: "forgot-password",
    who: "visitor",
    open: at(
      () => "/a/forgot-password",
      (p) => heading(p, /./),
    ),
  },
  {
    name: "not-found",
    who: "visitor",
    open: at(
      () => "/no/such/page",
      (p) => expect(p.getByText("Page not found")).toBeVisible(),
    ),
  },
  {
    name: "shared-board",
    who: "visitor",
    open: async (p) => {
      await p.goto(shareUrl);
      await expect(p.getByTestId("shared-card").first()).toBeVisible();
      await picturesLoaded(p);
    },
  },
  {
    name: "shared-viewer",
    who: "visitor",
    open: async (p) => {
      await p.goto(shareUrl);
      await p.getByRole("button", { name: "Open poster.jpg" }).click();
      await expect(p.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
    },
  },
  {
    name: "request-page",
    who: "visitor",
    open: at(
      () => requestUrl,
      (p) => expect(p.getByText("Send us the photos").first()).toBeVisible(),
    ),
  },
  {
    name: "home",
    who: "owner",
    open: at(
      () => `/w/${ws}`,
      (p) => heading(p, /./),
    ),
  },
  {
    name: "all-assets",
    who: "owner",
    open: at(
      () => `/w/${ws}/b/all`,
      async (p) => {
        await heading(p, "All assets");
        await grid(p);
      },
    ),
  },
  {
    name: "board",
    who: "owner",
    open: at(
      () => `/w/${ws}/b/${boardId}`,
      (p) => grid(p),
    ),
  },
  {
    name: "filter-drawer",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${ws}/b/${boardId}`);
      await p.getByTestId("open-filters").click();
      await dialog(p, "Filters");
    },
  },
  {
    name: "share-dialog",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${ws}/b/${boardId}`);
      await p.getByTestId("board-share").click();
      await dialog(p, "Share Board");
    },
  },
  {
    name: "request-files-dialog",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${ws}/b/${boardId}`);
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
      await p.goto(`/w/${ws}/b/${boardId}`);
      await p.getByTestId("upload-button").click();
      await settled(p.getByTestId("upload-dialog"));
    },
  },
  {
    name: "viewer-comments",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${ws}/b/${boardId}`);
      await p.getByRole("gridcell", { name: "poster.jpg" }).click();
      await expect(p.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
      if ((await p.getByTestId("viewer-tab-comments").getAttribute("aria-pressed")) !== "true")
        await p.getByTestId("viewer-tab-comments").click();
      await expect(p.getByText("The logo wants more room on the left.")).toBeVisible();
    },
  },
  {
    name: "viewer-details",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${ws}/b/${boardId}/a/${assetId}`);
      await expect(p.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true");
      await p.getByTestId("viewer-tab-details").click();
      await expect(p.getByText("poster.jpg").last()).toBeVisible();
    },
  },
  {
    name: "members",
    who: "owner",
    open: at(
      () => `/w/${ws}/members`,
      (p) => heading(p, "Members"),
    ),
  },
  {
    name: "invite-dialog",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${ws}/members`);
      await p.getByRole("button", { name: "Invite", exact: true }).click();
      await dialog(p, "Invite member");
    },
  },
  {
    name: "settings-details",
    who: "owner",
    open: at(
      () => `/w/${ws}/settings/details`,
      (p) => heading(p, "Settings"),
    ),
  },
  {
    name: "settings-fields",
    who: "owner",
    open: at(
      () => `/w/${ws}/settings/fields`,
      (p) => expect(p.getByText("Status").first()).toBeVisible(),
    ),
  },
  {
    name: "settings-share-links",
    who: "owner",
    open: at(
      () => `/w/${ws}/settings/share-links`,
      // A table at 1440 px, a card a link on a phone: the same test id.
      (p) => expect(p.getByTestId("share-links-table")).toBeVisible(),
    ),
  },
  {
    name: "settings-subscription",
    who: "owner",
    open: at(
      () => `/w/${ws}/settings/subscription`,
      (p) => heading(p, "Settings"),
    ),
  },
  {
    name: "recently-deleted",
    who: "owner",
    open: at(
      () => `/w/${ws}/recently-deleted`,
      (p) => heading(p, "Recently deleted"),
    ),
  },
  {
    name: "account",
    who: "owner",
    open: at(
      () => "/a/settings",
      (p) => heading(p, "Account settings"),
    ),
  },
  {
    name: "create-workspace",
    who: "owner",
    open: at(
      () => "/w/new",
      (p) => heading(p, /./),
    ),
  },
  {
    name: "phone-menu",
    who: "owner",
    only: "phone",
    open: async (p) => {
      await p.goto(`/w/${ws}/b/all`);
      await p.getByRole("button", { name: "Toggle navigation" }).click();
      await expect(p.getByRole("navigation", { name: "Workspace" })).toBeInViewport();
    },
  },
];

/**
 * One test per size, one step per screen, soft assertions: a failing screen is reported with every
 * other one (a failed test would restart the worker and redo the setup). Under load a screen takes
 * up to half a minute, hence the long budget; each step has its own short waits.
 */
for (const size of SIZES) {
  test(`axe finds no critical or serious violation on any screen at ${size.width} × ${size.height}`, async () => {
    test.setTimeout(1_200_000);
    const findings: Finding[] = [];
    for (const screen of SCREENS) {
      if (screen.only && screen.only !== size.name) continue;
      await test.step(screen.name, async () => {
        const page = screen.who === "owner" ? owner.page : await visitor.newPage();
        try {
          await page.setViewportSize(size);
          await screen.open(page);
          const mine = await audit(page, screen.name);
          findings.push(...mine);
          const bad = blocking(mine);
          expect.soft(bad, `${screen.name}: critical or serious violations:\n${describe(bad)}`).toEqual([]);
          expect.soft(await structure(page, screen.name), `${screen.name}: landmarks, headings, title`).toEqual([]);
          await shot(page, `${screen.name}-${size.width}`);
        } catch (error) {
          await shot(page, `${screen.name}-${size.width}-failed`).catch(() => {});
          expect.soft(String(error).split("\n")[0], `${screen.name} did not open`).toBe("");
        } finally {
          if (screen.who === "visitor") await page.close();
        }
      });
    }
    saveFindings(size.name, findings);
    console.log(`axe at ${size.width} × ${size.height}, violations by rule:`, tally(findings));
  });
}
