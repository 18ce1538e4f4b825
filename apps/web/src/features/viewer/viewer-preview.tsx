import { type Asset, BROWSER_SAFE_IMAGE_TYPES, ZOOM_ORIGINAL_MAX_BYTES } from "@hangar/contract";
import { Center, Text } from "@mantine/core";
import { useMemo } from "react";
import { placeholderUrl } from "../../entities/asset";
import { AnnotationLayer, DrawingStage } from "../comments";
import { FaceLayer } from "../people";
import type { PlaybackLock, ZoomLock } from "./compare/sync";
import { DocumentViewer } from "./components/document-viewer";
import { VideoPlayer } from "./components/video-player";
import { WatermarkedVideo } from "./components/watermarked-video";
import { ZoomableImage } from "./components/zoomable-image";
import { previewKind } from "./viewer-state";
import type { ViewerPage } from "./viewer-types";

export const pageCountOf = (asset: Asset) => Math.max(asset.page_count ?? 0, asset.pages.length, 1);

/** An image's pictures: the one shown at once, and the sharper one loaded on the first zoom in. */
export function imageSources(asset: Asset) {
  const ready = asset.status === "COMPLETED";
  const src = ready ? asset.thumbnail_url : null;
  const zoomSrc =
    asset.large_url ??
    (ready && BROWSER_SAFE_IMAGE_TYPES.includes(asset.mime_type) && asset.size <= ZOOM_ORIGINAL_MAX_BYTES
      ? asset.url
      : null);
  return { src, zoomSrc };
}

/** Compare (issue 29): this side's share of the locks, and whether it takes the player's keys. */
export interface PreviewLocks {
  zoom: ZoomLock;
  playback: PlaybackLock;
  keys: boolean;
}

/**
 * The preview area (spec 02 §2): the video player, the paged document viewer, or the zoomable image,
 * in the frame that takes the drawing tools (issue 31).
 */
export function Preview(props: Parameters<typeof PreviewBody>[0]) {
  return (
    <DrawingStage>
      <PreviewBody {...props} />
    </DrawingStage>
  );
}

function PreviewBody({
  asset,
  currentPage,
  onPage,
  viewKey = asset.id,
  locks = null,
  faces = false,
  watermarked = null,
}: {
  asset: Asset;
  currentPage: number;
  onPage(page: number): void;
  /** What makes it another picture (the asset, and the version shown): players start again. */
  viewKey?: string;
  locks?: PreviewLocks | null;
  /** A member's viewer: "Show faces" draws the faces on an image (issue 32). */
  faces?: boolean;
  /** A watermarking share link (issue 33): its video plays once watermarked; zoom never loads the original. */
  watermarked?: { token: string } | null;
}) {
  const placeholder = useMemo(() => placeholderUrl(asset.placeholder), [asset.placeholder]);
  const kind = previewKind(asset);
  if (kind === "video" && asset.video_url && watermarked) {
    return (
      <WatermarkedVideo token={watermarked.token} asset={asset} viewKey={viewKey} keys={locks ? locks.keys : true} />
    );
  }
  if (kind === "video" && asset.video_url) {
    return (
      <VideoPlayer
        key={viewKey}
        src={asset.video_url}
        poster={asset.thumbnail_url}
        duration={asset.duration}
        fps={asset.fps}
        sprite={asset.sprite}
        lock={locks?.playback}
        keys={locks ? locks.keys : true}
      />
    );
  }
  if (kind === "document") {
    return (
      <DocumentViewer
        key={viewKey}
        name={asset.name}
        pages={asset.pages as ViewerPage[]}
        pageCount={pageCountOf(asset)}
        currentPage={Math.min(currentPage, pageCountOf(asset))}
        onPage={onPage}
        lock={locks?.zoom}
      />
    );
  }
  const sources = imageSources(asset);
  // A watermarking link's original may be unstamped (downloads as the link allows): never the zoom.
  const { src, zoomSrc } = watermarked ? { ...sources, zoomSrc: asset.large_url } : sources;
  if (!src) {
    return (
      <Center h="100%" p="md">
        <Text c="gray.4">
          {asset.status === "error"
            ? `Processing failed: ${asset.error ?? "unknown error"}`
            : asset.status === "COMPLETED"
              ? (asset.preview_unavailable ?? "No preview for this file type")
              : "Processing…"}
        </Text>
      </Center>
    );
  }
  return (
    <ZoomableImage
      key={viewKey}
      src={src}
      zoomSrc={zoomSrc}
      placeholder={placeholder}
      alt={asset.name}
      ratio={asset.width && asset.height ? asset.width / asset.height : null}
      testId="image-preview"
      lock={locks?.zoom}
      panAlways={!!locks}
    >
      <AnnotationLayer page={null} />
      {faces && <FaceLayer workspaceId={asset.workspace_id} assetId={asset.id} />}
    </ZoomableImage>
  );
}
