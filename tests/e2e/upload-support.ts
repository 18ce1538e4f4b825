// Shared by the upload flows (uploads.spec.ts, uploads-cancel.spec.ts): files on disk, the dialog's
// locators, a drop as the OS does it, and a signed-up user.
import { mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { screenshots } from "./screenshots.ts";
import { api, baseUrl, signUpWithWorkspace } from "./support.ts";

export interface BoardJson {
  id: string;
  name: string;
  children?: BoardJson[];
}

export const shot = screenshots("upload");

const PALETTE = [
  ["#f6a04d", "#b43f6b"],
  ["#4fb3bf", "#1f4e79"],
  ["#9bd770", "#2f6b3a"],
  ["#f2d16b", "#c0583a"],
  ["#b39ddb", "#3d2c6e"],
  ["#ef8fa6", "#5b2a86"],
] as const;

/** A small JPEG with a gradient and a few shapes, so thumbnails are told apart in screenshots. */
export async function writeImage(file: string, i: number) {
  const [from, to] = PALETTE[i % PALETTE.length]!;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="800" height="600" fill="url(#g)"/>
    <circle cx="${220 + i * 60}" cy="260" r="${120 + i * 10}" fill="#ffffff" fill-opacity="0.28"/>
    <rect x="430" y="${300 - i * 20}" width="260" height="180" rx="24" fill="#000000" fill-opacity="0.18"/>
  </svg>`;
  mkdirSync(path.dirname(file), { recursive: true });
  await sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toFile(file);
}

/** {root}/{name}/cover.jpg, {name}/day1/{3 images}, {name}/day2/{2 images}: six files, three boards. */
export async function makeShootFolder(name: string): Promise<string> {
  const root = mkdtempSync(path.join(os.tmpdir(), "hangar-upload-"));
  const files = [
    "cover.jpg",
    "day1/harbour.jpg",
    "day1/market.jpg",
    "day1/ferry.jpg",
    "day2/dunes.jpg",
    "day2/pier.jpg",
  ];
  await Promise.all(files.map((f, i) => writeImage(path.join(root, name, f), i)));
  return path.join(root, name);
}

export async function boardTree(page: Page, workspaceId: string) {
  return api<BoardJson[]>(page, "GET", `/workspaces/${workspaceId}/boards?recursive=true`);
}

/** The tree as nested names, siblings sorted: "Shoot(day1,day2)". */
export const show = (list: BoardJson[] = []): string =>
  list
    .map((b) => (b.children?.length ? `${b.name}(${show(b.children)})` : b.name))
    .sort()
    .join(",");

/**
 * Drops real files or folders from disk on `target`, as the OS would (Chromium's drag input).
 * `whileOver` runs with the files held over the target, before they are let go.
 */
export async function dropFromDisk(page: Page, target: Locator, paths: string[], whileOver?: () => Promise<void>) {
  const box = await target.boundingBox();
  if (!box) throw new Error("the drop target is not visible");
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  await cdp.send("Input.dispatchDragEvent", { type: "dragEnter", x, y, data });
  await cdp.send("Input.dispatchDragEvent", { type: "dragOver", x, y, data });
  await whileOver?.();
  await cdp.send("Input.dispatchDragEvent", { type: "drop", x, y, data });
  await cdp.detach();
}

export const dialog = (page: Page) => page.getByRole("dialog", { name: "Upload files" });
export const item = (page: Page, name: string) => dialog(page).getByRole("listitem", { name, exact: true });
export const closeButton = (page: Page) => dialog(page).getByRole("button", { name: "Close", exact: true });

/** A gate a route handler waits on until the test opens it. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

export async function newUser(browser: Browser) {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const { workspaceId } = await signUpWithWorkspace(page, { prefix: "uploader", workspaceName: "Harbour Films" });
  return { page, workspaceId };
}
