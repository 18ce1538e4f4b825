import type { Face } from "@hangar/contract";
import { IconUser } from "@tabler/icons-react";

/**
 * A face cut out of the rendition it was found on, as a background (no extra request: the browser
 * already has the thumbnail): the box is scaled to fill the square and placed so its corner meets
 * the square's (background-position in percent aligns that share of the picture with that share of
 * the box). Face boxes are square in pixels, so nothing is stretched.
 */
export function FaceCrop({
  face,
  size,
  radius = "50%",
}: {
  face: Face | null;
  size: number | string;
  radius?: string;
}) {
  const common = { width: size, aspectRatio: "1", borderRadius: radius, flex: "none" } as const;
  if (!face?.picture_url) {
    return (
      <div
        aria-hidden
        style={{
          ...common,
          display: "grid",
          placeItems: "center",
          background: "var(--mantine-color-gray-2)",
          color: "var(--mantine-color-gray-6)",
        }}
      >
        <IconUser size={typeof size === "number" ? size / 2 : 32} stroke={1.4} />
      </div>
    );
  }
  // A little room around the face (12 % of its size each side), kept inside the picture.
  const [x0, y0, w0, h0] = face.picture_box;
  const pad = 0.12;
  const w = Math.min(1, w0 * (1 + 2 * pad));
  const h = Math.min(1, h0 * (1 + 2 * pad));
  const x = Math.min(Math.max(0, x0 - w0 * pad), 1 - w);
  const y = Math.min(Math.max(0, y0 - h0 * pad), 1 - h);
  const pos = (start: number, span: number) => (span >= 1 ? 0 : (start / (1 - span)) * 100);
  return (
    <div
      aria-hidden
      style={{
        ...common,
        backgroundColor: "var(--mantine-color-gray-2)",
        backgroundImage: `url("${face.picture_url}")`,
        backgroundSize: `${100 / w}% ${100 / h}%`,
        backgroundPosition: `${pos(x, w)}% ${pos(y, h)}%`,
        backgroundRepeat: "no-repeat",
      }}
    />
  );
}
