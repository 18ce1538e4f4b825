import type { Asset } from "@hangar/contract";
import { ActionIcon, Alert, Box, Center, Group, Loader, SegmentedControl, Text, Tooltip } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconX } from "@tabler/icons-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { type SharedReview, VersionReview } from "../../comments";
import { VIEWER_SIDEBAR } from "../viewer-constants";
import { Preview, pageCountOf } from "../viewer-preview";
import { previewKind } from "../viewer-state";
import { OverlayView, sameShape } from "./overlay-view";
import { createPlaybackLock, createZoomLock } from "./sync";

/** One side of a compare: the asset as that version shows it. */
export interface CompareSide {
  /** Tells the sides apart (a version id, or an asset id). */
  key: string;
  /** "v2", or the asset's name. */
  label: string;
  /** A second line under the label (date, uploader). */
  detail?: string;
  asset: Asset;
  version: { id: string; number: number } | null;
  /** A picker for another version in this side's place (versions compare). */
  picker?: ReactNode;
}

type Mode = "side" | "overlay" | "difference";

/**
 * Compare (issue 29): two versions, or two assets, side by side — one zoom and pan for images and
 * document pages (page by page), one playback for videos — each with its own annotations; on a
 * phone one above the other. Two images of the same shape may also be laid over each other
 * (a slider cuts between them) or shown as their difference.
 */
export function CompareView(props: {
  workspaceId: string;
  title: string;
  sides: [CompareSide, CompareSide] | null;
  /** Why the sides cannot be shown (the server's text). */
  error?: string | null;
  /** A share link's visitor: each side's comments through the link. */
  shared?: SharedReview | null;
  onClose(): void;
}) {
  const { sides } = props;
  const phone = useMediaQuery(`(max-width: ${VIEWER_SIDEBAR.breakpoint}px)`) ?? false;
  const [mode, setMode] = useState<Mode>("side");
  const [page, setPage] = useState(1);
  const zoom = useMemo(createZoomLock, []);
  const playback = useMemo(createPlaybackLock, []);
  const canOverlay =
    !!sides &&
    sides.every((s) => previewKind(s.asset) === "image" && s.asset.thumbnail_url) &&
    sameShape(sides[0].asset, sides[1].asset);
  useEffect(() => {
    if (!canOverlay && mode !== "side") setMode("side");
  }, [canOverlay, mode]);
  const pages = sides ? Math.max(pageCountOf(sides[0].asset), pageCountOf(sides[1].asset)) : 1;
  const modes = (
    <Tooltip label="Overlay and difference need two images of the same shape" disabled={canOverlay || !sides} withArrow>
      <Box data-testid="compare-mode">
        <SegmentedControl
          size="xs"
          fullWidth={phone}
          value={mode}
          onChange={(v) => setMode(v as Mode)}
          aria-label="Compare mode"
          data={[
            { value: "side", label: "Side by side" },
            { value: "overlay", label: "Overlay", disabled: !canOverlay },
            { value: "difference", label: "Difference", disabled: !canOverlay },
          ]}
        />
      </Box>
    </Tooltip>
  );

  return (
    <Box h="100dvh" style={{ display: "flex", flexDirection: "column" }} data-testid="compare-view" data-mode={mode}>
      <Group
        // The dialog's own bar, not a page banner beside the app's header (axe: one banner a page).
        component="div"
        px="md"
        py={8}
        gap="sm"
        wrap={phone ? "wrap" : "nowrap"}
        style={{ borderBottom: "1px solid var(--mantine-color-dark-4)", flexShrink: 0, minHeight: 56, rowGap: 6 }}
      >
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Text fw={650} truncate="end" data-testid="compare-title">
            {props.title}
          </Text>
          <Text size="xs" c="gray.5" truncate="end">
            {sides ? `${sides[0].label} and ${sides[1].label}` : "Loading…"}
          </Text>
        </Box>
        {!phone && modes}
        <Tooltip label="Close compare (Esc)">
          <ActionIcon variant="subtle" color="gray.0" size="lg" aria-label="Close compare" onClick={props.onClose}>
            <IconX size={20} />
          </ActionIcon>
        </Tooltip>
        {/* A phone: the modes on a line of their own, under the title. */}
        {phone && <Box w="100%">{modes}</Box>}
      </Group>
      <Box style={{ flex: 1, minHeight: 0 }}>
        {props.error ? (
          <Center h="100%" p="md">
            <Alert color="red" variant="light" title="Compare unavailable" data-testid="compare-error">
              {props.error}
            </Alert>
          </Center>
        ) : !sides ? (
          <Center h="100%">
            <Loader color="gray.0" />
          </Center>
        ) : mode !== "side" ? (
          <OverlayView
            mode={mode}
            left={{ asset: sides[0].asset, label: sides[0].label }}
            right={{ asset: sides[1].asset, label: sides[1].label }}
          />
        ) : (
          <Box h="100%" style={{ display: "flex", flexDirection: phone ? "column" : "row" }}>
            {sides.map((side, i) => (
              <Box
                key={side.key}
                data-testid="compare-side"
                data-side={i === 0 ? "left" : "right"}
                style={{
                  flex: 1,
                  minWidth: 0,
                  minHeight: 0,
                  display: "flex",
                  flexDirection: "column",
                  borderLeft: !phone && i === 1 ? "1px solid var(--mantine-color-dark-4)" : undefined,
                  borderTop: phone && i === 1 ? "1px solid var(--mantine-color-dark-4)" : undefined,
                }}
              >
                <Group gap="xs" px="sm" py={6} wrap="nowrap" style={{ flexShrink: 0 }}>
                  <Text fw={650} size="sm" data-testid="compare-side-label">
                    {side.label}
                  </Text>
                  {side.detail && (
                    <Text size="xs" c="gray.5" truncate="end" style={{ minWidth: 0, flex: 1 }}>
                      {side.detail}
                    </Text>
                  )}
                  {side.picker}
                </Group>
                <Box pos="relative" style={{ flex: 1, minHeight: 0 }}>
                  <VersionReview
                    workspaceId={props.workspaceId}
                    asset={side.asset}
                    version={side.version}
                    page={page}
                    shared={props.shared ?? null}
                  >
                    <Preview
                      asset={side.asset}
                      viewKey={side.key}
                      currentPage={page}
                      onPage={(p) => setPage(Math.min(Math.max(1, p), pages))}
                      locks={{ zoom, playback, keys: i === 0 }}
                    />
                  </VersionReview>
                </Box>
              </Box>
            ))}
          </Box>
        )}
      </Box>
    </Box>
  );
}
