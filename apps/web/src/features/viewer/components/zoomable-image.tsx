import { ActionIcon, Box, Group, Loader, Text, Tooltip } from "@mantine/core";
import { IconZoomIn, IconZoomOut, IconZoomReset } from "@tabler/icons-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { type ReactZoomPanPinchRef, TransformComponent, TransformWrapper } from "react-zoom-pan-pinch";
import type { ZoomLock } from "../compare/sync";
import { IMAGE_ZOOM } from "../viewer-constants";

export interface ZoomableImageProps {
  /** The picture shown at once (a grid or page rendition). */
  src: string | null;
  /** A sharper picture loaded on the first zoom in (the large rendition or a web-safe original). */
  zoomSrc?: string | null;
  /** ThumbHash data URL shown while `src` loads. */
  placeholder?: string | null;
  alt: string;
  /** width / height when known; the spec's 16:9 default until then. */
  ratio?: number | null;
  /**
   * Overlays drawn in the image's coordinates (annotations; compare's other picture). A function is
   * told once the sharper picture is wanted (the first zoom in), so an overlaid picture can follow.
   */
  children?: ReactNode | ((sharp: boolean) => ReactNode);
  testId?: string;
  /** Compare: zoom and pan shared with the other side. */
  lock?: ZoomLock | null;
  /** Compare: a plain drag pans (nothing is drawn there), not only with Ctrl or Meta held. */
  panAlways?: boolean;
}

const zoomInStep = (scale: number) => scale * (IMAGE_ZOOM.factor - 1);
const zoomOutStep = (scale: number) => scale - scale / IMAGE_ZOOM.factor;

/** Ctrl or Meta held: pan mode (spec 02 §2 Image preview). */
function usePanKey() {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    const update = (e: KeyboardEvent) => setHeld(e.ctrlKey || e.metaKey);
    const reset = () => setHeld(false);
    window.addEventListener("keydown", update);
    window.addEventListener("keyup", update);
    window.addEventListener("blur", reset);
    return () => {
      window.removeEventListener("keydown", update);
      window.removeEventListener("keyup", update);
      window.removeEventListener("blur", reset);
    };
  }, []);
  return held;
}

/**
 * An image that zooms from 1 to 4, ×1.5 a click (or the wheel), kept within its bounds, with no
 * rotation; panning while Ctrl or Meta is held. Zooming in swaps in the sharper picture.
 */
/** The zoom toolbar's place: its distance from the bottom, and what the picture's area leaves it
 * (its height, 36, and a gap above, with the picture's own offset counted in). */
const TOOLBAR_BOTTOM = 8;
const TOOLBAR_CLEARANCE = Math.max(0, TOOLBAR_BOTTOM + 36 + 8 - IMAGE_ZOOM.offsetPx);

export function ZoomableImage({
  src,
  zoomSrc,
  placeholder,
  alt,
  ratio,
  children,
  testId,
  lock,
  panAlways,
}: ZoomableImageProps) {
  const ref = useRef<ReactZoomPanPinchRef>(null);
  const side = useRef<ReturnType<ZoomLock["join"]> | null>(null);
  useEffect(() => {
    if (!lock) return;
    const joined = lock.join((s) => ref.current?.setTransform(s.positionX, s.positionY, s.scale, 0));
    side.current = joined;
    return () => {
      joined.leave();
      side.current = null;
    };
  }, [lock]);
  const [scale, setScale] = useState(1);
  const [loaded, setLoaded] = useState(false);
  const [wantSharp, setWantSharp] = useState(false);
  const [sharpLoaded, setSharpLoaded] = useState(false);
  const panKey = usePanKey();
  const panMode = panKey || !!panAlways;
  const shownRatio = ratio && ratio > 0 ? ratio : IMAGE_ZOOM.defaultRatio;

  // A new picture (next asset, next page) starts unzoomed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a new src only
  useEffect(() => {
    setLoaded(false);
    setWantSharp(false);
    setSharpLoaded(false);
    setScale(1);
    ref.current?.resetTransform(0);
  }, [src]);
  useEffect(() => {
    if (scale > 1 && zoomSrc && zoomSrc !== src) setWantSharp(true);
  }, [scale, zoomSrc, src]);

  const zoom = (direction: 1 | -1) => {
    const r = ref.current;
    if (!r) return;
    const s = r.state.scale;
    // Instant: each click multiplies the scale it lands on, even when clicks come fast.
    if (direction > 0) r.zoomIn(zoomInStep(s), 0);
    else r.zoomOut(zoomOutStep(s), 0);
  };

  return (
    <Box
      pos="relative"
      w="100%"
      h="100%"
      data-testid={testId}
      data-scale={scale.toFixed(3)}
      data-pan-mode={panMode ? "on" : "off"}
      style={{ cursor: panMode ? "grab" : scale > 1 ? "zoom-out" : "zoom-in", overflow: "hidden" }}
    >
      {/* The picture's area ends above the zoom toolbar: a tall page's foot is never under it (issue 35). */}
      <Box pos="absolute" top={0} left={0} right={0} bottom={TOOLBAR_CLEARANCE}>
        <TransformWrapper
          ref={ref}
          minScale={IMAGE_ZOOM.min}
          maxScale={IMAGE_ZOOM.max}
          limitToBounds
          centerZoomedOut
          centerOnInit
          doubleClick={{ disabled: true }}
          panning={{ disabled: !panMode, velocityDisabled: true }}
          wheel={{ step: 0.2 }}
          onTransform={(_r, state) => {
            setScale(state.scale);
            side.current?.publish(state);
          }}
        >
          <TransformComponent
            wrapperStyle={{ width: "100%", height: "100%" }}
            contentStyle={{ width: "100%", height: "100%", alignItems: "center", justifyContent: "center" }}
          >
            <Box
              pos="relative"
              style={{
                aspectRatio: String(shownRatio),
                maxWidth: `calc(100% - ${2 * IMAGE_ZOOM.offsetPx}px)`,
                maxHeight: `calc(100% - ${2 * IMAGE_ZOOM.offsetPx}px)`,
                width: shownRatio >= 1 ? "100%" : "auto",
                height: shownRatio < 1 ? "100%" : "auto",
                margin: "auto",
                backgroundImage: placeholder && !loaded ? `url(${placeholder})` : undefined,
                backgroundSize: "100% 100%",
                // Overlays keep their size whatever the zoom (annotation markers divide by it).
                ["--viewer-zoom" as string]: String(scale),
              }}
            >
              {src && (
                <img
                  src={src}
                  alt={alt}
                  draggable={false}
                  onLoad={() => setLoaded(true)}
                  data-testid="viewer-image"
                  data-loaded={loaded ? "true" : "false"}
                  style={{ width: "100%", height: "100%", objectFit: "contain", display: "block", userSelect: "none" }}
                />
              )}
              {wantSharp && zoomSrc && (
                <img
                  src={zoomSrc}
                  alt=""
                  aria-hidden
                  draggable={false}
                  onLoad={() => setSharpLoaded(true)}
                  data-testid="viewer-image-sharp"
                  style={{
                    position: "absolute",
                    inset: 0,
                    width: "100%",
                    height: "100%",
                    objectFit: "contain",
                    opacity: sharpLoaded ? 1 : 0,
                    userSelect: "none",
                  }}
                />
              )}
              {typeof children === "function" ? children(wantSharp) : children}
            </Box>
          </TransformComponent>
        </TransformWrapper>
      </Box>
      {src && !loaded && (
        <Loader size="sm" color="gray" pos="absolute" top="50%" left="50%" style={{ translate: "-50% -50%" }} />
      )}
      <Group
        gap={4}
        pos="absolute"
        bottom={TOOLBAR_BOTTOM}
        data-testid="zoom-toolbar"
        left="50%"
        style={{ translate: "-50% 0", background: "rgba(0,0,0,0.55)", borderRadius: 8, padding: 4 }}
      >
        <Tooltip label="Zoom out">
          <ActionIcon
            variant="subtle"
            color="gray.0"
            aria-label="Zoom out"
            onClick={() => zoom(-1)}
            disabled={scale <= IMAGE_ZOOM.min + 0.001}
          >
            <IconZoomOut size={18} />
          </ActionIcon>
        </Tooltip>
        <Text size="xs" c="gray.0" w={44} ta="center" data-testid="zoom-level">
          {Math.round(scale * 100)}%
        </Text>
        <Tooltip label="Zoom in">
          <ActionIcon
            variant="subtle"
            color="gray.0"
            aria-label="Zoom in"
            onClick={() => zoom(1)}
            disabled={scale >= IMAGE_ZOOM.max - 0.001}
          >
            <IconZoomIn size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Fit">
          <ActionIcon
            variant="subtle"
            color="gray.0"
            aria-label="Reset zoom"
            onClick={() => ref.current?.resetTransform(200)}
            disabled={scale <= IMAGE_ZOOM.min + 0.001}
          >
            <IconZoomReset size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Box>
  );
}
