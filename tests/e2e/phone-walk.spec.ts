import { type Browser, type Page, test } from "@playwright/test";
import { settled } from "./a11y-support.ts";
import { jpeg, uploadAsset } from "./assets-support.ts";
import { allowed, phoneProblems } from "./phone-walk-support.ts";
import {
  at,
  buildWorld,
  dialog,
  expect,
  heading,
  PHONE,
  type Screen,
  screens,
  viewer,
  viewerTab,
  type World,
  walkScreens,
} from "./screens-support.ts";
import { screenshots } from "./screenshots.ts";
import { api, linkFromMail, uniqueEmail } from "./support.ts";

/**
 * Issue 35, phone: every route and dialog at 390 × 844 (screens-support.ts's list, which axe walks
 * too, and the screens below that need more than its workspace: a review, an invitation, a deleted
 * file) fits the screen's width, has no interactive control smaller than WCAG 2.5.8's 24 × 24 px
 * target (spacing and inline exceptions honoured), none covered by something else, and no word
 * cut to a stub by an ellipsis. What is measured and how: phone-walk-support.ts. Each screen's
 * full-page screenshot: phone-walk-*.png (look at them: a check passes on what it measures only).
 */
const shot = screenshots("phone-walk", { fullPage: true });
test.use({ actionTimeout: 30_000 });

let world: World;
let reviewId = "";
let reviewUrl = "";
let inviteUrl = "";

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(300_000);
  world = await buildWorld(browser, "Phone studio");
  const { page } = world.owner;
  const { ws, assetId } = world;
  // An invitation still open (the members page lists it; its link opens the invitation page).
  const invitee = uniqueEmail("invitee");
  await api(page, "POST", `/workspaces/${ws}/invites`, { email: invitee, role: "EDITOR" });
  inviteUrl = new URL(await linkFromMail(invitee, "/a/invite/")).pathname;
  // A deleted file in Recently deleted.
  const draft = await uploadAsset(page, ws, "old-draft-with-a-rather-long-file-name.jpg", await jpeg(3));
  await api(page, "DELETE", `/workspaces/${ws}/assets`, { asset_ids: [draft] });
  // A review asking someone outside the workspace: the Reviews pages and the link mailed to them.
  const outsider = uniqueEmail("pat");
  reviewId = (
    await api<{ id: string }>(page, "POST", `/workspaces/${ws}/reviews`, {
      title: "Spring campaign",
      message: "Please check the poster before Friday's print run.",
      asset_ids: [assetId],
      due_at: new Date(Date.now() + 3 * 24 * 3600_000).toISOString(),
      stages: [{ rule: "all", reviewers: [{ email: outsider, name: "Pat Outside" }] }],
    })
  ).id;
  reviewUrl = new URL(await linkFromMail(outsider, "/review/")).pathname;
});
test.afterAll(async () => {
  await world?.owner.context.close();
  await world?.visitor.close();
});

/** Screens beyond screens-support's list, or shown at 390 px here only. */
const more = (w: World): Screen[] => [
  {
    name: "reset-password",
    who: "visitor",
    open: at("/a/reset-password?token=not-a-real-token", (p) => heading(p, "Choose a new password")),
  },
  { name: "awaiting-verification", who: "visitor", open: at("/a/awaiting-verification", (p) => heading(p, /./)) },
  {
    name: "invitation",
    who: "visitor",
    open: at(inviteUrl, (p) => expect(p.getByTestId("invite-summary")).toBeVisible()),
  },
  {
    name: "review-link",
    who: "visitor",
    open: at(reviewUrl, async (p) => {
      await expect(p.getByTestId("review-title")).toHaveText("Spring campaign");
      await expect(p.getByTestId("review-asset")).toHaveCount(1);
    }),
  },
  {
    name: "upload-dialog",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/b/${w.boardId}`);
      await p.getByTestId("upload-button").click();
      await settled(p.getByTestId("upload-dialog"));
    },
  },
  {
    name: "board-options-menu",
    who: "owner",
    open: async (p) => {
      await p.goto(`/w/${w.ws}/b/${w.boardId}`);
      await p.getByRole("button", { name: "Board options" }).click();
      await settled(p.getByRole("menu"));
    },
  },
  {
    name: "viewer-fields",
    who: "owner",
    open: async (p) => {
      await viewer(p, `/w/${w.ws}/b/${w.boardId}/a/${w.assetId}`);
      await viewerTab(p, "fields");
      await expect(p.getByText("Status").last()).toBeVisible();
    },
  },
  {
    name: "viewer-boards",
    who: "owner",
    open: async (p) => {
      await viewer(p, `/w/${w.ws}/b/${w.boardId}/a/${w.assetId}`);
      await viewerTab(p, "boards");
      await expect(p.getByText("Current view")).toBeVisible();
    },
  },
  {
    name: "request-review-dialog",
    who: "owner",
    open: async (p) => {
      await viewer(p, `/w/${w.ws}/b/${w.boardId}/a/${w.assetId}`);
      await p.getByRole("button", { name: "Request review" }).click();
      await dialog(p, "Request review");
    },
  },
  {
    name: "reviews",
    who: "owner",
    open: at(`/w/${w.ws}/reviews?tab=requested`, (p) =>
      expect(p.getByTestId("review-list").getByText("Spring campaign")).toBeVisible(),
    ),
  },
  {
    name: "review-page",
    who: "owner",
    open: at(`/w/${w.ws}/reviews/${reviewId}`, (p) => expect(p.getByTestId("review-state")).toBeVisible()),
  },
  {
    name: "recently-deleted-with-a-file",
    who: "owner",
    open: at(`/w/${w.ws}/recently-deleted`, (p) => expect(p.getByTestId("trash-row").first()).toBeVisible()),
  },
];

/** Where the controls checked live when no dialog is open and the page's own would be covered. */
const SCOPES: Record<string, string> = {
  // The open phone menu covers the page below the header: its links and the header's are checked.
  "phone-menu": 'header, nav[aria-label="Workspace"]',
};

test("every screen at 390 × 844 fits the width, with controls of 24 × 24 px or more that nothing covers", async () => {
  test.setTimeout(1_200_000);
  const found: string[] = [];
  const check = async (page: Page, screen: Screen) => {
    const result = await phoneProblems(page, SCOPES[screen.name]);
    console.log(`${screen.name}: ${result.controls} controls, the smallest ${result.smallest}`);
    const report = (kind: string, lines: string[]) => {
      const bad = lines.filter((l) => !allowed(screen.name, l));
      found.push(...bad.map((l) => `${screen.name} ${kind}: ${l}`));
      expect.soft(bad, `${screen.name}: ${kind}`).toEqual([]);
    };
    report("overflow", result.overflow);
    report("small", result.small);
    report("covered", result.covered);
    report("stubs", result.stubs);
  };
  await walkScreens(world, [...screens(world), ...more(world)], PHONE, shot, check);
  console.log(found.length ? `phone walk found:\n${found.join("\n")}` : "phone walk: every screen passes");
});
