import type { Asset } from "@hangar/contract";
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Center,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
} from "@mantine/core";
import { IconChevronLeft, IconChevronRight, IconExternalLink } from "@tabler/icons-react";
import { useEffect, useMemo, useState } from "react";
import { errorMessage } from "../../../lib/api-client";
import { AssetThumb, formatBytes, placeholderUrl } from "../../uploads";
import { isNotFound, useAsset } from "../api";
import { FILE_TYPE_LABELS, formatExposure } from "../filters/labels";
import { formatDuration, isReady } from "../grid/asset-card";

const MEDIA_HEIGHT = "min(70vh, 720px)";

/** The 1024 rendition, the video rendition, a document's first page, or the file-type icon. */
function PreviewMedia({ asset }: { asset: Asset }) {
  const [loaded, setLoaded] = useState(false);
  const bg = useMemo(() => placeholderUrl(asset.placeholder), [asset.placeholder]);
  const frame = {
    height: MEDIA_HEIGHT,
    borderRadius: "var(--mantine-radius-md)",
    background: "var(--mantine-color-dark-7)",
    overflow: "hidden",
  } as const;

  if (asset.file_type === "VIDEO" && isReady(asset) && asset.video_url) {
    return (
      <Box style={frame}>
        {/* biome-ignore lint/a11y/useMediaCaption: user uploads have no caption track */}
        <video
          src={asset.video_url}
          poster={asset.thumbnail_url ?? undefined}
          controls
          preload="metadata"
          style={{ width: "100%", height: "100%", objectFit: "contain", display: "block" }}
          data-testid="preview-video"
        />
      </Box>
    );
  }
  const page = asset.pages[0];
  const src = asset.file_type === "IMAGE" && isReady(asset) ? asset.thumbnail_url : (page?.url ?? asset.thumbnail_url);
  if (src && asset.status === "COMPLETED") {
    return (
      <Box
        style={{
          ...frame,
          backgroundImage: bg && !loaded ? `url(${bg})` : undefined,
          backgroundSize: "contain",
          backgroundRepeat: "no-repeat",
          backgroundPosition: "center",
        }}
      >
        <img
          src={src}
          alt={asset.name}
          onLoad={() => setLoaded(true)}
          style={{ width: "100%", height: "100%", objectFit: "contain", display: "block" }}
          data-testid="preview-image"
        />
      </Box>
    );
  }
  return (
    <Box style={{ ...frame, background: "var(--mantine-color-gray-1)" }}>
      <Stack h="100%" align="center" justify="center" gap="xs">
        <Box w={120} h={120}>
          <AssetThumb asset={null} fileType={asset.file_type} iconSize={72} />
        </Box>
        <Text c="dimmed" size="sm">
          {asset.status === "error"
            ? `Processing failed: ${asset.error ?? "unknown error"}`
            : (asset.preview_unavailable ?? "No preview for this file")}
        </Text>
      </Stack>
    </Box>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Stack>
  );
}

function Facts({ asset }: { asset: Asset }) {
  const exif = asset.exif;
  const camera = [exif?.make, exif?.model].filter(Boolean).join(" ");
  const settings = [
    exif?.aperture ? `f/${exif.aperture}` : null,
    exif?.exposure_time ? formatExposure(exif.exposure_time) : null,
    exif?.iso ? `ISO ${exif.iso}` : null,
    exif?.focal_length ? `${exif.focal_length} mm` : null,
  ].filter(Boolean);
  return (
    <Stack gap="sm" data-testid="preview-facts">
      <Fact label="Type">
        {FILE_TYPE_LABELS[asset.file_type]}
        {asset.file_extension ? ` · ${asset.file_extension.toUpperCase()}` : ""}
      </Fact>
      <Fact label="Size">{formatBytes(asset.size)}</Fact>
      {asset.width && asset.height ? <Fact label="Dimensions">{`${asset.width} × ${asset.height} px`}</Fact> : null}
      {asset.duration ? <Fact label="Duration">{formatDuration(asset.duration)}</Fact> : null}
      {asset.page_count ? <Fact label="Pages">{asset.page_count}</Fact> : null}
      <Fact label="Uploaded">{new Date(asset.date_uploaded).toLocaleString()}</Fact>
      {exif?.date_taken && <Fact label="Taken">{new Date(exif.date_taken).toLocaleString()}</Fact>}
      {camera && <Fact label="Camera">{camera}</Fact>}
      {settings.length > 0 && <Fact label="Exposure">{settings.join(" · ")}</Fact>}
      {asset.tags.length > 0 && (
        <Fact label="Tags">
          <Group gap={4} component="span">
            {asset.tags.map((t) => (
              <Badge key={t} size="sm" variant="light" tt="none">
                {t}
              </Badge>
            ))}
          </Group>
        </Fact>
      )}
      {asset.boards.length > 0 && <Fact label="Boards">{asset.boards.map((b) => b.name).join(", ")}</Fact>}
      {asset.url && (
        <Anchor href={asset.url} target="_blank" rel="noreferrer" size="sm">
          <Group gap={4} component="span">
            Open original <IconExternalLink size={14} />
          </Group>
        </Anchor>
      )}
    </Stack>
  );
}

/**
 * The preview shown over the grid at /w/:ws/(b/:board/)a/:asset (the full viewer comes later).
 * Escape or the close button returns to the grid's address; ←/→ step through the loaded assets.
 */
export function AssetPreview({
  workspaceId,
  assetId,
  onClose,
  onStep,
  prevId,
  nextId,
}: {
  workspaceId: string;
  assetId: string;
  onClose: () => void;
  onStep: (assetId: string) => void;
  prevId: string | null;
  nextId: string | null;
}) {
  const query = useAsset(workspaceId, assetId);
  const asset = query.data;
  // The second click of the double-click that opened it must not land on the overlay and close it.
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), 400);
    return () => clearTimeout(timer);
  }, []);

  // Keys work wherever the focus is (on a fresh load it may not have reached the modal yet), so the
  // modal's own Escape handling, which needs the focus inside it, is off.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const el = event.target as HTMLElement | null;
      if (el && /^(INPUT|TEXTAREA|SELECT|VIDEO)$/.test(el.tagName)) return;
      if (el?.closest('[role="menu"], [role="listbox"]')) return;
      if (event.key === "Escape") onClose();
      if (event.key === "ArrowLeft" && prevId) onStep(prevId);
      if (event.key === "ArrowRight" && nextId) onStep(nextId);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [prevId, nextId, onStep, onClose]);

  return (
    <Modal
      opened
      onClose={onClose}
      size="min(1180px, 96vw)"
      centered
      closeOnClickOutside={armed}
      closeOnEscape={false}
      title={
        <Text fw={650} truncate="end" maw="70vw" data-testid="preview-title">
          {asset?.name ?? (query.isError ? "Asset" : "Loading…")}
        </Text>
      }
      closeButtonProps={{ "aria-label": "Close preview" }}
      data-testid="asset-preview"
    >
      {query.isError && !asset ? (
        <Alert color={isNotFound(query.error) ? "gray" : "red"} variant="light" title="Asset unavailable">
          {isNotFound(query.error)
            ? "This asset does not exist, was deleted, or belongs to another workspace."
            : errorMessage(query.error, "Failed to fetch asset")}
        </Alert>
      ) : !asset ? (
        <Center h={MEDIA_HEIGHT}>
          <Loader />
        </Center>
      ) : (
        <Group align="stretch" gap="lg" wrap="nowrap">
          <Box style={{ flex: 1, minWidth: 0, position: "relative" }}>
            <PreviewMedia key={asset.id} asset={asset} />
            {prevId && (
              <Tooltip label="Previous (←)">
                <ActionIcon
                  variant="white"
                  radius="xl"
                  size="lg"
                  aria-label="Previous asset"
                  onClick={() => onStep(prevId)}
                  style={{ position: "absolute", left: 8, top: "50%", transform: "translateY(-50%)" }}
                >
                  <IconChevronLeft size={18} />
                </ActionIcon>
              </Tooltip>
            )}
            {nextId && (
              <Tooltip label="Next (→)">
                <ActionIcon
                  variant="white"
                  radius="xl"
                  size="lg"
                  aria-label="Next asset"
                  onClick={() => onStep(nextId)}
                  style={{ position: "absolute", right: 8, top: "50%", transform: "translateY(-50%)" }}
                >
                  <IconChevronRight size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </Box>
          <ScrollArea.Autosize mah={MEDIA_HEIGHT} w={240} style={{ flex: "none" }}>
            <Facts asset={asset} />
          </ScrollArea.Autosize>
        </Group>
      )}
    </Modal>
  );
}
