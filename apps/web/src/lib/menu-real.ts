// Mantine's Menu, in its own chunk: fetched by lazy-menu.tsx with a menu's first open.
export { Menu } from "@mantine/core";
