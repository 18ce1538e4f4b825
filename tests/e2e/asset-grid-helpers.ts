import type { Page } from "@playwright/test";
import { screenshots } from "./screenshots.ts";

/** Shared by the asset grid flows (assets-browse, assets-grid-states). Screenshots: screenshots.ts. */
export const shot = screenshots("assets-browse");

export const cards = (page: Page) => page.getByTestId("asset-card");
export const card = (page: Page, name: string) => page.getByRole("gridcell", { name, exact: true });
