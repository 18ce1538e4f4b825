import type { Locator, Page } from "@playwright/test";
import { screenshots } from "./screenshots.ts";

/** Shared by the asset grid flows (assets-browse, assets-grid-states). Screenshots: screenshots.ts. */
export const shot = screenshots("assets-browse");

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A card's accessible name: its file name first, then ", " and the rest of what the card shows
 * ("poster.jpg, JPG, 2.10 MB, 800×600, In review, 3"; AssetCard, WCAG 2.5.3). This matches the card
 * of exactly that file, whatever its badges say.
 */
export const cardName = (name: string) => new RegExp(`^${escapeRegExp(name)}(?:, |$)`);

export const cards = (page: Page) => page.getByTestId("asset-card");
export const card = (page: Page | Locator, name: string) => page.getByRole("gridcell", { name: cardName(name) });

/** The file names of `cards`, as their captions show them, in the markup's order. */
export const fileNames = (cards: Locator) =>
  cards.evaluateAll((els) => els.map((el) => el.querySelector('[data-testid="asset-card-name"]')?.textContent ?? ""));
