import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { anAsset, anId } from "../../../test/fixtures";
import { renderWithApp } from "../../../test/render";
import { AssetCard, type CardHandlers } from "./asset-card";

const handlers: CardHandlers = { onCardClick: vi.fn(), onOpen: vi.fn(), onToggle: vi.fn(), onFocusCard: vi.fn() };

/** Words as axe's label-content-name-mismatch compares them: letters and digits, lower case. */
const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Whether `needle`'s words come, in order and next to each other, in `haystack`'s. */
const contains = (haystack: string[], needle: string[]) =>
  haystack.some((_, i) => needle.every((w, j) => haystack[i + j] === w));

function card(asset: ReturnType<typeof anAsset>) {
  renderWithApp(<AssetCard asset={asset} index={0} selected={false} tabbable handlers={handlers} cardField={null} />);
  return screen.getByRole("gridcell");
}

describe("a card's name (WCAG 2.5.3 Label in Name)", () => {
  it("says the file first, then all the card shows, in the order it is in the markup", () => {
    const asset = anAsset({
      name: "poster.jpg",
      size: 2_200_000,
      open_comment_count: 3,
      tags: ["launch", "print", "hero"],
      version_count: 2,
      current_version: { id: anId(), number: 2 },
      approval: { review_id: anId(), review_title: "Launch", status: "in_review", decisions: [] },
    });
    const el = card(asset);
    const name = el.getAttribute("aria-label") ?? "";
    expect(name).toBe("poster.jpg, JPG, 2.10 MB, 800×600, In review, v2, 3, launch, print, +1");
    // The text nodes joined as they are (as axe joins them): every visible word is in the name, in order.
    expect(el.textContent).toContain("poster.jpg JPG");
    expect(contains(words(name), words(el.textContent ?? ""))).toBe(true);
    expect(words(el.textContent ?? "")).toEqual(words(name));
    // What the badges mean is the description: the badges' own labels.
    const described = document.getElementById(el.getAttribute("aria-describedby") ?? "");
    expect(described?.querySelector('[data-testid="card-open-comments"]')?.getAttribute("aria-label")).toBe(
      "3 open comment threads",
    );
  });

  it("is the file and its meta line alone on a card without badges, and has no description", () => {
    const el = card(
      anAsset({ name: "notes.txt", file_type: "OTHER", file_extension: "txt", width: null, height: null }),
    );
    expect(el.getAttribute("aria-label")).toMatch(/^notes\.txt, TXT, \d/);
    expect(words(el.textContent ?? "")).toEqual(words(el.getAttribute("aria-label") ?? ""));
    expect(el.hasAttribute("aria-describedby")).toBe(false);
  });
});
