import path from "node:path";
import type { Page } from "@playwright/test";

/** Shared by the asset grid flows (assets-browse, assets-grid-states). Screenshots go next to the notes. */
const SCREENS = process.env.HANGAR_SCREENS_DIR ?? "/work/notes/screens";
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENS, `assets-browse-${name}.png`), fullPage: false });

export const cards = (page: Page) => page.getByTestId("asset-card");
export const card = (page: Page, name: string) => page.getByRole("gridcell", { name, exact: true });
