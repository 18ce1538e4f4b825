import { DEFAULT_THEME, luminance, mergeMantineTheme } from "@mantine/core";
import { describe, expect, it } from "vitest";
import { contrast, cssVariablesResolver, DIMMED_TEXT, TEXT_CONTRAST, theme } from "./theme";

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const light = cssVariablesResolver(resolved).light;
const palettes = Object.keys(resolved.colors).filter((c) => c !== "dark");

describe("the theme's colours carry text at WCAG AA (issue 35)", () => {
  it("dimmed text reads on white, on the page's gray 0 and on gray 1", () => {
    expect(light["--mantine-color-dimmed"]).toBe(DIMMED_TEXT);
    for (const bg of ["#ffffff", "#f8f9fa", "#f1f3f5"]) expect(contrast(DIMMED_TEXT, bg)).toBeGreaterThanOrEqual(4.5);
    // Mantine's own (gray 6) did not: the test can fail.
    expect(contrast("#868e96", "#ffffff")).toBeLessThan(TEXT_CONTRAST);
  });

  it.each(palettes)("%s: white on its fill, its text and outline on white, a light badge's text", (name) => {
    const shades = resolved.colors[name]!;
    const v = (k: string) => light[`--mantine-color-${name}-${k}`]!;
    expect(contrast(v("filled"), "#ffffff")).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrast(v("text"), "#ffffff")).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrast(v("outline"), "#ffffff")).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrast(v("light-color"), shades[1]!)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    // Only darker where Mantine's fell short: a fill is the primary shade (7) or darker.
    expect(luminance(v("filled"))).toBeLessThanOrEqual(luminance(shades[7]!));
  });

  it("keeps the brand's fill and the green badge's hue ('Open', 3.8:1 before)", () => {
    expect(light["--mantine-color-brand-filled"]).toBe(resolved.colors.brand![7]);
    expect(contrast(resolved.colors.green[9], resolved.colors.green[1])).toBeLessThan(TEXT_CONTRAST);
    expect(contrast(light["--mantine-color-green-light-color"]!, resolved.colors.green[1])).toBeGreaterThanOrEqual(
      TEXT_CONTRAST,
    );
  });
});
