import { Box } from "@mantine/core";
import { useState } from "react";
import type { UploadItem } from "../upload-store";
import { ROW_HEIGHT, UploadItemRow } from "./upload-item-row";

const MAX_HEIGHT = 360;
const OVERSCAN = 6;

/**
 * The dialog's items. Rows have one fixed height, so only the rows in view (plus a few) are mounted:
 * a folder of thousands of files scrolls as smoothly as ten.
 */
export function UploadList({ items }: { items: readonly UploadItem[] }) {
  const [scrollTop, setScrollTop] = useState(0);
  const height = Math.min(items.length * ROW_HEIGHT, MAX_HEIGHT);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + MAX_HEIGHT) / ROW_HEIGHT) + OVERSCAN);

  return (
    <Box
      h={height}
      style={{ overflowY: "auto", overscrollBehavior: "contain" }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      data-testid="upload-list"
    >
      <Box role="list" aria-label="Uploads" pos="relative" h={items.length * ROW_HEIGHT}>
        {items.slice(first, last).map((item, i) => (
          <Box
            key={item.id}
            pos="absolute"
            top={(first + i) * ROW_HEIGHT}
            left={0}
            right={0}
            role="listitem"
            aria-label={item.name}
            aria-setsize={items.length}
            aria-posinset={first + i + 1}
            data-testid="upload-item"
            data-status={item.status}
            style={{ borderBottom: "1px solid var(--mantine-color-gray-1)" }}
          >
            <UploadItemRow item={item} />
          </Box>
        ))}
      </Box>
    </Box>
  );
}
