// Mantine's Tooltip (with floating-ui), in its own chunk: fetched by lazy-tooltip.tsx.
export { Tooltip } from "@mantine/core";
