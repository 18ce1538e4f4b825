import { ActionIcon, Box, Group, NumberInput, Text, Tooltip } from "@mantine/core";
import { IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { AnnotationLayer } from "../../comments";
import type { ZoomLock } from "../compare/sync";
import { pageBounds } from "../viewer-state";
import type { ViewerPage } from "../viewer-types";
import { ZoomableImage } from "./zoomable-image";

export interface DocumentViewerProps {
  name: string;
  pages: ViewerPage[];
  pageCount: number;
  currentPage: number;
  onPage(page: number): void;
  /** Compare: the zoom shared with the other side, and panning by a plain drag. */
  lock?: ZoomLock | null;
}

/** The current page's image (zoomable), previous / next disabled at the ends, a page number box. */
export function DocumentViewer({ name, pages, pageCount, currentPage, onPage, lock }: DocumentViewerProps) {
  const page = pages.find((p) => p.number === currentPage) ?? null;
  const { canPrevious, canNext } = pageBounds(currentPage, pageCount);
  const [typed, setTyped] = useState<string | number>(currentPage);
  useEffect(() => setTyped(currentPage), [currentPage]);

  // The neighbours' pages, so stepping shows them at once.
  useEffect(() => {
    for (const n of [currentPage - 1, currentPage + 1]) {
      const url = pages.find((p) => p.number === n)?.url;
      if (url) new Image().src = url;
    }
  }, [currentPage, pages]);

  return (
    <Box h="100%" style={{ display: "flex", flexDirection: "column" }} data-testid="document-viewer">
      <Box style={{ flex: 1, minHeight: 0 }}>
        <ZoomableImage
          src={page?.url ?? null}
          zoomSrc={page?.large_url ?? null}
          alt={`${name}, page ${currentPage}`}
          ratio={page && page.height > 0 ? page.width / page.height : 0.7727}
          lock={lock}
          panAlways={!!lock}
        >
          {page && <AnnotationLayer page={currentPage} />}
        </ZoomableImage>
      </Box>
      <Group justify="center" gap="xs" py={8} style={{ borderTop: "1px solid var(--mantine-color-dark-4)" }}>
        <Tooltip label="Previous page">
          <ActionIcon
            variant="subtle"
            color="gray.0"
            aria-label="Previous page"
            disabled={!canPrevious}
            onClick={() => onPage(currentPage - 1)}
          >
            <IconChevronLeft size={18} />
          </ActionIcon>
        </Tooltip>
        <NumberInput
          aria-label="Page number"
          size="xs"
          w={64}
          min={1}
          max={pageCount}
          hideControls
          value={typed}
          onChange={setTyped}
          onBlur={() => onPage(Number(typed) || currentPage)}
          onKeyDown={(e) => {
            if (e.key === "Enter") onPage(Number(typed) || currentPage);
          }}
          data-testid="page-input"
        />
        <Text size="sm" c="gray.3" data-testid="page-count">
          of {pageCount}
          {page?.label ? ` · ${page.label}` : ""}
        </Text>
        <Tooltip label="Next page">
          <ActionIcon
            variant="subtle"
            color="gray.0"
            aria-label="Next page"
            disabled={!canNext}
            onClick={() => onPage(currentPage + 1)}
          >
            <IconChevronRight size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Box>
  );
}
