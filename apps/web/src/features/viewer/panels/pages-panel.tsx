import { Box, Image, Stack, Text, Title, UnstyledButton } from "@mantine/core";
import { useEffect, useRef } from "react";
import { VIEWER_MESSAGES } from "../viewer-constants";
import type { ViewerPage } from "../viewer-types";

/** A thumbnail per page, "Page N" and the PDF's own label; a click makes that page current. */
export function PagesPanel({
  pages,
  currentPage,
  onPage,
}: {
  pages: ViewerPage[];
  currentPage: number;
  onPage(page: number): void;
}) {
  const current = useRef<HTMLButtonElement>(null);
  // Keep the current page in sight when it changes from elsewhere (next/previous, a comment's page).
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the page changes
  useEffect(() => {
    current.current?.scrollIntoView({ block: "nearest" });
  }, [currentPage]);
  return (
    <Stack gap="xs" data-testid="pages-panel">
      <Title order={3} size="h5">
        {VIEWER_MESSAGES.pagesHeading}
      </Title>
      {pages.map((p) => {
        const active = p.number === currentPage;
        return (
          <UnstyledButton
            key={p.number}
            ref={active ? current : undefined}
            onClick={() => onPage(p.number)}
            aria-current={active ? "page" : undefined}
            data-testid="pages-panel-page"
            data-page={p.number}
            style={{
              display: "flex",
              gap: 10,
              alignItems: "center",
              padding: 6,
              borderRadius: 6,
              background: active ? "var(--mantine-color-blue-light)" : undefined,
              outline: active ? "2px solid var(--mantine-color-blue-filled)" : undefined,
            }}
          >
            <Box w={56} style={{ flexShrink: 0 }}>
              <Image
                src={p.url}
                alt=""
                loading="lazy"
                radius={2}
                style={{ border: "1px solid var(--mantine-color-gray-3)" }}
              />
            </Box>
            <Box>
              <Text size="sm" fw={active ? 600 : 400}>
                Page {p.number}
              </Text>
              {p.label && p.label !== String(p.number) && (
                <Text size="xs" c="dimmed" data-testid="page-label">
                  {p.label}
                </Text>
              )}
            </Box>
          </UnstyledButton>
        );
      })}
    </Stack>
  );
}
