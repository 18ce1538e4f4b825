import { type CSSVariablesResolver, createTheme, type MantineColorsTuple } from "@mantine/core";

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

/** The theme's CSS variables that are not colours of a palette (MantineProvider's resolver). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-dimmed": DIMMED_TEXT },
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
  },
});
