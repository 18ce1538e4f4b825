import { type CSSVariablesResolver, createTheme, type MantineColorsTuple, type MantineTheme } from "@mantine/core";
import { contrast, TEXT_CONTRAST } from "../lib/contrast";

export { contrast, TEXT_CONTRAST };

// A desaturated slate blue: calm next to photos and video, which should carry the colour on screen.
const brand: MantineColorsTuple = [
  "#f0f3f9",
  "#dfe4ee",
  "#bcc7dc",
  "#97a8ca",
  "#778dba",
  "#637cb1",
  "#5873ae",
  "#486299",
  "#3f5789",
  "#334a7a",
];

/**
 * Dimmed text (captions, sizes, dates, hints) one step darker than Mantine's gray 6 (#868e96, 3.3:1 on
 * white), in the same cool grey: 5.2:1 on white, 5.0:1 on the page's gray 0 and 4.7:1 on gray 1
 * (hovered rows), so every dimmed line meets WCAG AA's 4.5:1 wherever it sits (issue 35).
 */
export const DIMMED_TEXT = "#666d75";

/**
 * The first shade of `shades` from `from` on that reaches AA against `background`; for the brightest
 * palettes (yellow, lime, orange), whose shade 9 falls short, shade 9 darkened until it does.
 */
const readableShade = (shades: readonly string[], from: number, background: string) =>
  shades.slice(from).find((c) => contrast(c, background) >= TEXT_CONTRAST) ?? darker(shades[9] as string, background);

/**
 * The light scheme's per-colour variables, made to carry text at AA (issue 35): Mantine fills with
 * shade 6 or 7 under white text, writes `c="red"` and outlines in shade 6 and light badges in shade 9
 * on shade 1, which for the bright palettes (red, green, orange, yellow…) is 2–4:1. Each takes the
 * first darker shade of its own palette that reaches 4.5:1, so hues stay and only what fell short
 * darkens; the hover fill is the shade after it.
 */
export function readableColorVariables(theme: MantineTheme): Record<string, string> {
  const out: Record<string, string> = {};
  // Fills start where Mantine's do (the primary shade, for every colour): never lighter than today.
  const fillFrom = typeof theme.primaryShade === "number" ? theme.primaryShade : theme.primaryShade.light;
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === "dark" || shades.length < 10) continue;
    const fill = readableShade(shades, fillFrom, "#ffffff");
    out[`--mantine-color-${name}-filled`] = fill;
    const at = shades.indexOf(fill);
    out[`--mantine-color-${name}-filled-hover`] = at >= 0 && at < 9 ? (shades[at + 1] as string) : darker(fill, "#000");
    const text = readableShade(shades, 6, "#ffffff");
    out[`--mantine-color-${name}-text`] = text;
    out[`--mantine-color-${name}-outline`] = text;
    out[`--mantine-color-${name}-light-color`] = readableShade(shades, 9, shades[1] as string);
  }
  return out;
}

/** `color` mixed towards black until it reads on `background` (a hover: one step darker). */
function darker(color: string, background: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(color.slice(i, i + 2), 16)) as [number, number, number];
  for (let k = 0.95; k > 0; k -= 0.05) {
    const mixed = `#${[r, g, b]
      .map((v) =>
        Math.round(v * k)
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")}`;
    if (contrast(mixed, background) >= TEXT_CONTRAST) return mixed;
  }
  return "#000000";
}

/** The theme's CSS variables beyond its palettes (MantineProvider's resolver). */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: { ...readableColorVariables(resolved), "--mantine-color-dimmed": DIMMED_TEXT },
  dark: {},
});

export const theme = createTheme({
  primaryColor: "brand",
  primaryShade: { light: 7, dark: 5 },
  colors: { brand },
  defaultRadius: "md",
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: "650" },
  focusRing: "auto",
  cursorType: "pointer",
  components: {
    // Required fields keep aria-required but show no asterisk: labels stay exactly their text
    // ("Password", not "Password *"), and optional fields say so instead. Plain objects, not
    // `Select.extend(...)`: the theme is in every first load, and naming the components there would
    // bring Select (and its Combobox) and PasswordInput into pages that never show one.
    TextInput: { defaultProps: { withAsterisk: false } },
    PasswordInput: { defaultProps: { withAsterisk: false } },
    Select: { defaultProps: { withAsterisk: false } },
    // Every close button says what it is (a drawer's, a modal's, a sheet's): screen readers otherwise
    // announce a nameless "button". A close button that says more (e.g. "Clear filter") keeps its own.
    CloseButton: { defaultProps: { "aria-label": "Close" } },
    ColorInput: { defaultProps: { eyeDropperButtonProps: { "aria-label": "Pick a colour from the screen" } } },
    // A dialog's or drawer's title bar is a <header>, which assistive technology reads as a second
    // page banner beside the app's own (axe: landmark-no-duplicate-banner): it is part of its dialog.
    // (Modal and Drawer render through their Root, which Modal.Root and Drawer.Root use directly.)
    ModalRoot: { defaultProps: { attributes: { header: { role: "none" } } } },
    DrawerRoot: { defaultProps: { attributes: { header: { role: "none" } } } },
  },
});
