import { luminance } from "@mantine/core";

/** WCAG AA for text (1.4.3): what every colour that carries text must reach on its background. */
export const TEXT_CONTRAST = 4.5;

/** WCAG's contrast ratio of two colours (1 to 21). */
export const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** White or black, whichever reads better on `background` (a colour a user chose, e.g. a field option's). */
export const textOn = (background: string) =>
  contrast(background, "#ffffff") >= contrast(background, "#000000") ? "white" : "black";
