import { createTheme, type MantineColorsTuple } from "@mantine/core";

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
  },
});
