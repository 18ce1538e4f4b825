// Mantine's Select (with Combobox, Popover, ScrollArea), in its own chunk: fetched by lazy-select.tsx.
export { Select } from "@mantine/core";
