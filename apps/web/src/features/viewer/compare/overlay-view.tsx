import type { Asset } from "@hangar/contract";
import { Badge, Box, Group, Slider, Text } from "@mantine/core";
import { type CSSProperties, useState } from "react";
import { placeholderUrl } from "../../../entities/asset";
import { ZoomableImage } from "../components/zoomable-image";
import { imageSources } from "../viewer-preview";

/** Two images the same shape (within 1 %): overlay and difference make sense for them. */
export function sameShape(a: Asset, b: Asset): boolean {
  if (!a.width || !a.height || !b.width || !b.height) return false;
  const ra = a.width / a.height;
  const rb = b.width / b.height;
  return Math.abs(ra - rb) / ra < 0.01;
}

const layer = { position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "contain" } as const;

/** The other picture over the first, with its sharper picture once the first one has its own. */
function Over({ asset, sharp, style }: { asset: Asset; sharp: boolean; style: CSSProperties }) {
  const { src, zoomSrc } = imageSources(asset);
  const [sharpLoaded, setSharpLoaded] = useState(false);
  return (
    <Box style={{ ...layer, ...style }} data-testid="overlay-top">
      {src && <img src={src} alt="" draggable={false} style={{ ...layer, userSelect: "none" }} />}
      {sharp && zoomSrc && (
        <img
          src={zoomSrc}
          alt=""
          draggable={false}
          onLoad={() => setSharpLoaded(true)}
          style={{ ...layer, opacity: sharpLoaded ? 1 : 0, userSelect: "none" }}
        />
      )}
    </Box>
  );
}

/**
 * Compare's overlay modes (issue 29), for two images of the same shape. Overlay: the second image
 * over the first, cut at the slider's position (the first to its left, the second to its right).
 * Difference: the second blended over the first with `mix-blend-mode: difference`, so unchanged
 * pixels turn black and changed ones light up. Zoom and pan as in the viewer (a plain drag pans).
 */
export function OverlayView(props: {
  mode: "overlay" | "difference";
  left: { asset: Asset; label: string };
  right: { asset: Asset; label: string };
}) {
  const { mode, left, right } = props;
  const [position, setPosition] = useState(50);
  const { src, zoomSrc } = imageSources(left.asset);
  const overlay = mode === "overlay";
  return (
    <Box h="100%" style={{ display: "flex", flexDirection: "column" }} data-testid={`compare-${mode}`}>
      <Box pos="relative" style={{ flex: 1, minHeight: 0, isolation: "isolate" }}>
        <ZoomableImage
          src={src}
          zoomSrc={zoomSrc}
          placeholder={placeholderUrl(left.asset.placeholder)}
          alt={`${left.label} and ${right.label}`}
          ratio={left.asset.width && left.asset.height ? left.asset.width / left.asset.height : null}
          testId="compare-overlay-image"
          panAlways
        >
          {(sharp) => (
            <>
              <Over
                asset={right.asset}
                sharp={sharp}
                style={
                  overlay
                    ? { clipPath: `inset(0 0 0 ${position}%)` }
                    : { mixBlendMode: "difference", pointerEvents: "none" }
                }
              />
              {overlay && (
                <Box
                  aria-hidden
                  data-testid="overlay-divider"
                  style={{
                    position: "absolute",
                    top: 0,
                    bottom: 0,
                    left: `${position}%`,
                    width: 2,
                    translate: "-1px 0",
                    scale: "calc(1 / var(--viewer-zoom, 1)) 1",
                    background: "white",
                    boxShadow: "0 0 4px rgba(0,0,0,0.6)",
                    pointerEvents: "none",
                  }}
                />
              )}
            </>
          )}
        </ZoomableImage>
        <Group pos="absolute" top={10} left={10} right={10} justify="space-between" style={{ pointerEvents: "none" }}>
          <Badge color="dark" variant="filled" size="lg" tt="none">
            {overlay ? left.label : `${left.label} − ${right.label}`}
          </Badge>
          {overlay && (
            <Badge color="dark" variant="filled" size="lg" tt="none">
              {right.label}
            </Badge>
          )}
        </Group>
      </Box>
      <Group
        gap="sm"
        px="md"
        py={10}
        wrap="nowrap"
        style={{ borderTop: "1px solid var(--mantine-color-dark-4)" }}
        justify="center"
      >
        {overlay ? (
          <>
            <Text size="sm" c="gray.3" style={{ whiteSpace: "nowrap" }}>
              {left.label}
            </Text>
            <Slider
              aria-label="Overlay position"
              thumbLabel="Overlay position"
              value={position}
              onChange={setPosition}
              min={0}
              max={100}
              step={1}
              label={(v) => `${v}%`}
              w="min(480px, 70%)"
              color="blue"
              data-testid="overlay-slider"
            />
            <Text size="sm" c="gray.3" style={{ whiteSpace: "nowrap" }}>
              {right.label}
            </Text>
          </>
        ) : (
          <Text size="sm" c="gray.3" data-testid="difference-legend">
            Black where {left.label} and {right.label} are the same; the brighter, the more a pixel changed.
          </Text>
        )}
      </Group>
    </Box>
  );
}
