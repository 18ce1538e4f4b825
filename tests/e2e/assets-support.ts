import { execFileSync } from "node:child_process";
import { type Browser, expect, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, signUpWithWorkspace } from "./support.ts";

/** Helpers shared by the asset-action flows (assets-actions.spec.ts, assets-trash-zip.spec.ts). */
export const shot = screenshots("assets-actions");

/** A dialog done animating in (for screenshots). */
export const settled = (dialog: Locator) => expect(dialog).toHaveCSS("opacity", "1");

export const toasts = (page: Page) => page.locator(".mantine-Notification-root");
export const expectToast = (page: Page, text: string) =>
  expect(toasts(page).filter({ hasText: text }).last()).toBeVisible();

/** A small distinct JPEG (a colour and a shape), as the uploads flow makes them. */
export async function jpeg(i: number): Promise<Buffer> {
  const hue = (i * 67) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360">
    <rect width="480" height="360" fill="hsl(${hue},65%,55%)"/>
    <circle cx="${140 + i * 30}" cy="180" r="${70 + i * 6}" fill="#fff" fill-opacity="0.35"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/**
 * Uploads one file through the API as the upload dialog does (init → PUT to the signed URL, or each
 * part with its ETag → complete); answers its id.
 */
export async function uploadAsset(
  page: Page,
  workspaceId: string,
  name: string,
  bytes: Buffer,
  boardId?: string,
  contentType = "image/jpeg",
) {
  const init = await api<{
    asset_id: string;
    upload_id: string;
    key: string;
    direct_url?: string;
    parts?: Array<{ part_number: number; start_byte: number; end_byte: number; url: string }>;
  }>(page, "POST", `/workspaces/${workspaceId}/assets/upload`, {
    name,
    size: bytes.length,
    content_type: contentType,
    board_id: boardId ?? null,
  });
  const abs = (u: string) => (u.startsWith("http") ? u : `${baseUrl()}${u}`);
  const parts: Array<{ part_number: number; etag: string }> = [];
  if (init.direct_url) {
    const put = await page.request.put(abs(init.direct_url), { data: bytes, headers: { "Content-Type": contentType } });
    expect(put.ok(), `PUT ${name}`).toBe(true);
  } else {
    for (const part of init.parts ?? []) {
      const put = await page.request.put(abs(part.url), { data: bytes.subarray(part.start_byte, part.end_byte + 1) });
      expect(put.ok(), `PUT ${name} part ${part.part_number}`).toBe(true);
      parts.push({ part_number: part.part_number, etag: put.headers().etag! });
    }
  }
  await api(page, "POST", `/workspaces/${workspaceId}/assets/upload/complete`, {
    upload_id: init.upload_id,
    key: init.key,
    parts,
  });
  // Listings show an asset once processing is over (it is temporary until then).
  await expect
    .poll(
      async () =>
        (await api<{ is_temp: boolean }>(page, "GET", `/workspaces/${workspaceId}/assets/${init.asset_id}`)).is_temp,
      { timeout: 60_000, message: `${name} processed` },
    )
    .toBe(false);
  return init.asset_id;
}

export const createBoard = (page: Page, workspaceId: string, name: string, parentId: string | null = null) =>
  api<{ id: string; name: string }>(page, "POST", `/workspaces/${workspaceId}/boards`, { name, parent_id: parentId });

export async function assetStatus(page: Page, workspaceId: string, id: string): Promise<number> {
  const res = await page.request.get(`${baseUrl()}/api/v1/workspaces/${workspaceId}/assets/${id}`);
  return res.status();
}

export async function newOwner(browser: Browser, workspaceName: string) {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "assets", firstName: "Olivia", workspaceName });
  return { context, page, workspaceId };
}

/** The files in a zip on disk (unzip -Z1 lists one name a line; folder entries end in "/"). */
export function zipEntries(file: string): string[] {
  return execFileSync("unzip", ["-Z1", file], { encoding: "utf8" })
    .split("\n")
    .filter((name) => name && !name.endsWith("/"))
    .sort();
}

export const trashRow = (page: Page, name: string) =>
  page.getByTestId("trash-row").filter({ has: page.getByText(name, { exact: true }) });

/**
 * Every picture in `cards` sits on its thumbhash's average colour, which shows at once (the blurred
 * placeholder comes when the browser is idle and the picture has not arrived), never the empty grey.
 */
export async function expectPlaceholderColours(cards: Locator, count: number) {
  const colours = await cards
    .locator("img")
    .evaluateAll((imgs) => imgs.map((img) => getComputedStyle(img.parentElement!).backgroundColor));
  expect(colours).toHaveLength(count);
  for (const colour of colours) {
    expect(colour).toMatch(/^rgb\(/);
    expect(colour).not.toBe("rgb(241, 243, 245)");
  }
}
