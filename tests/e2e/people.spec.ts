import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { card, cards } from "./asset-grid-helpers.ts";
import { expectToast, uploadAsset } from "./assets-support.ts";
import { type E2EServer, startE2EServer } from "./hangar-server.ts";
import { screenshots } from "./screenshots.ts";
import { api, signUpWithWorkspace } from "./support.ts";

/**
 * People in the web (issue 32), on a server of its own with face recognition on (the shared one runs
 * with FACES=0): a group photo of three people and two more crops each of two of them are uploaded,
 * their faces found and grouped; on the People page a person is named in place, and the grid is
 * filtered by them from the filter builder. The person's page and "Show faces" in the viewer are
 * looked at on a desktop and a phone.
 */
const shot = screenshots("people");
const PHOTO = path.resolve(import.meta.dirname, "../../apps/server/test/files/faces/group-3.jpg");
let server: E2EServer | undefined;
let previousUrl: string | undefined;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  server = await startE2EServer({
    label: "people",
    env: () => ({
      FACES: "1",
      AI_TAGS: "0",
      OCR: "0",
      SMTP_URL: `smtp://127.0.0.1:${process.env.HANGAR_E2E_SMTP_PORT}`,
    }),
  });
  // The helpers in support.ts talk to HANGAR_E2E_URL: this file's server, until it ends.
  previousUrl = process.env.HANGAR_E2E_URL;
  process.env.HANGAR_E2E_URL = server.baseUrl;
});
test.afterAll(async () => {
  process.env.HANGAR_E2E_URL = previousUrl;
  await server?.stop();
});

interface Face {
  id: string;
  box: [number, number, number, number];
  person: { id: string; name: string | null } | null;
}

/** The faces of an asset once they were looked for (the detect-faces job follows processing). */
async function facesOf(page: Page, ws: string, assetId: string): Promise<Face[]> {
  let faces: Face[] = [];
  await expect
    .poll(
      async () => {
        const a = await api<{ data: Face[]; scanned: boolean }>(
          page,
          "GET",
          `/workspaces/${ws}/assets/${assetId}/faces`,
        );
        faces = a.data;
        return a.scanned;
      },
      { timeout: 120_000, message: "faces looked for" },
    )
    .toBe(true);
  return faces;
}

/** A face of the photo cut out as its own picture (the side twice the face's, `size` px). */
async function crop(box: Face["box"], size: number, shift = 0) {
  const meta = await sharp(PHOTO).metadata();
  const W = meta.width!;
  const H = meta.height!;
  const s = Math.max(box[2] * W, box[3] * H);
  const side = Math.round(s * 2);
  const left = Math.max(0, Math.round((box[0] + box[2] / 2) * W - side / 2 + shift * s));
  const top = Math.max(0, Math.round((box[1] + box[3] / 2) * H - side / 2));
  return sharp(PHOTO)
    .extract({ left, top, width: Math.min(W - left, side), height: Math.min(H - top, side) })
    .resize(size, size, { fit: "inside" })
    .jpeg({ quality: 85 })
    .toBuffer();
}

test("faces are grouped into people; a person is named on the People page and the grid is filtered by them", async ({
  browser,
}) => {
  // Five pictures processed and looked at for faces one after another: minutes on a busy machine.
  test.setTimeout(600_000);
  const context = await browser.newContext({ baseURL: server!.baseUrl, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const { workspaceId: ws } = await signUpWithWorkspace(page, { prefix: "people", workspaceName: "Friends" });
  const photo = await sharp(PHOTO).toBuffer();
  const groupId = await uploadAsset(page, ws, "friends.jpg", photo);
  const faces = (await facesOf(page, ws, groupId)).sort((a, b) => a.box[0] - b.box[0]);
  expect(faces).toHaveLength(3);
  const ids = [groupId];
  const names = new Map([[groupId, "friends.jpg"]]);
  for (const [i, face] of faces.slice(0, 2).entries()) {
    for (const [size, shift] of [
      [300, 0],
      [480, -0.1],
    ] as const) {
      const name = `portrait-${i + 1}-${size}.jpg`;
      const id = await uploadAsset(page, ws, name, await crop(face.box, size, shift));
      await facesOf(page, ws, id);
      ids.push(id);
      names.set(id, name);
    }
  }
  // The grouping job runs after faces are found: two people of three faces each.
  await expect
    .poll(
      async () =>
        (await api<{ data: Array<{ face_count: number }> }>(page, "GET", `/workspaces/${ws}/people`)).data.map(
          (p) => p.face_count,
        ),
      { timeout: 120_000, message: "two people grouped" },
    )
    .toEqual([3, 3]);

  // People in the nav; the grid of unnamed people.
  await page.goto(`/w/${ws}`);
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "People" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${ws}/people$`));
  await expect(page.getByTestId("person-card")).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByRole("region", { name: "Not named yet" })).toBeVisible();
  await shot(page, "grid-unnamed");

  // Name the first person in place.
  const first = page.getByTestId("person-card").first();
  const personId = (await first.getAttribute("data-person-id"))!;
  await first.getByRole("button", { name: "Add a name" }).click();
  const input = page.getByTestId("person-name-input");
  await input.fill("Ada Lovelace");
  await input.press("Enter");
  await expectToast(page, "Name saved");
  const named = page.getByRole("region", { name: "Named", exact: true });
  await expect(named.getByTestId("person-card")).toHaveCount(1);
  await expect(named.getByRole("button", { name: "Rename Ada Lovelace" })).toBeVisible();
  await shot(page, "grid-named");

  // The person's page: faces, counts, and their assets.
  await named.getByRole("link", { name: "Open Ada Lovelace" }).click();
  await expect(page).toHaveURL(new RegExp(`/people/${personId}$`));
  await expect(page.getByTestId("person-counts")).toHaveText("3 faces in 3 assets");
  await expect(page.getByTestId("person-face")).toHaveCount(3);
  await shot(page, "person");

  // Filter the grid by Ada from the filter builder.
  await page.goto(`/w/${ws}/b/all`);
  await expect(page.getByRole("gridcell")).toHaveCount(5, { timeout: 30_000 });
  await expect(cards(page)).toHaveCount(5);
  await page.getByTestId("open-filters").click();
  const drawer = page.getByTestId("filter-drawer");
  await drawer.getByRole("button", { name: /^People/ }).click();
  await drawer.getByTestId("filter-people-includes").click();
  await page.getByRole("option", { name: "Ada Lovelace" }).click();
  await page.keyboard.press("Escape");
  await shot(page, "filter-drawer");
  await drawer.getByTestId("apply-filters").click();
  await expect(page.getByTestId("filter-chip")).toHaveText("Person: Ada Lovelace");
  await expect(cards(page)).toHaveCount(3);
  // Exactly the assets of Ada's faces.
  const hers = await api<{ data: Array<{ asset_id: string }> }>(
    page,
    "GET",
    `/workspaces/${ws}/people/${personId}/faces`,
  );
  const shown = [...new Set(hers.data.map((f) => names.get(f.asset_id)!))].sort();
  expect(shown).toHaveLength(3);
  expect(shown).toContain("friends.jpg");
  for (const name of names.values()) await expect(card(page, name)).toHaveCount(shown.includes(name) ? 1 : 0);
  await shot(page, "grid-filtered");

  // Show faces in the viewer's details tab: boxes with names, "Who is this?" on the unnamed one.
  await page.goto(`/w/${ws}/a/${groupId}`);
  await expect(page.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true", { timeout: 60_000 });
  await page.getByTestId("viewer-tab-details").click();
  const section = page.getByTestId("faces-section");
  await expect(section.getByTestId("asset-face")).toHaveCount(3);
  await section.getByRole("switch", { name: "Show faces" }).check();
  await expect(page.getByTestId("face-box")).toHaveCount(3);
  await expect(page.getByTestId("face-layer")).toContainText("Ada Lovelace");
  await expect(page.getByTestId("face-layer")).toContainText("Who is this?");
  await shot(page, "viewer-faces");
  // "Who is this?" on the face nobody else shares: a new person, named.
  const lone = section.getByTestId("asset-face").filter({ hasText: "Not recognised yet" });
  await lone.getByRole("button", { name: "Who is this?" }).click();
  await page.getByTestId("who-is-this-name").fill("Cleo");
  await shot(page, "who-is-this");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("face-layer")).toContainText("Cleo");
  await expect(section.getByRole("link", { name: "Cleo" })).toBeVisible();

  // A phone: the People page and the person's page fit 390 px.
  const phone = await browser.newContext({
    baseURL: server!.baseUrl,
    viewport: { width: 390, height: 844 },
    storageState: await context.storageState(),
  });
  const p = await phone.newPage();
  await p.goto(`/w/${ws}/people`);
  // Ada, Cleo and the unnamed one.
  await expect(p.getByTestId("person-card")).toHaveCount(3, { timeout: 30_000 });
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(p, "phone-grid");
  await p.goto(`/w/${ws}/people/${personId}`);
  await expect(p.getByTestId("person-face")).toHaveCount(3, { timeout: 30_000 });
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(p, "phone-person");
  await p.goto(`/w/${ws}/a/${groupId}`);
  await expect(p.getByTestId("viewer-image")).toHaveAttribute("data-loaded", "true", { timeout: 60_000 });
  await p.getByTestId("viewer-tab-details").click();
  await expect(p.getByTestId("faces-section")).toBeVisible();
  await p.getByTestId("faces-section").getByRole("switch", { name: "Show faces" }).check();
  await expect(p.getByTestId("face-box")).toHaveCount(3);
  await shot(p, "phone-viewer");
  await phone.close();
  await context.close();
  expect(ids).toHaveLength(5);
});
